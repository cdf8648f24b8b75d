/**
 * Until a form's code is live (useActionForm marks its forms `data-action-form`, and `data-ready` when they
 * are), a submit is held rather than sent natively (which would reload the page with the fields in the URL)
 * and made again once the form is live. Inline in the document, so it holds from first paint, before
 * hydration, and for forms whose code loads later (./lazy-form).
 */
const script = `document.addEventListener('submit',function(e){var f=e.target;if(!(f instanceof HTMLFormElement)||!f.hasAttribute('data-action-form')||f.dataset.ready)return;e.preventDefault();f.dataset.pendingSubmit='1';},true);`;

export function HoldEarlySubmit() {
  return <script dangerouslySetInnerHTML={{ __html: script }} />;
}
