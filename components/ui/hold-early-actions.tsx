/**
 * Until a form's code is live (useActionForm marks its forms `data-action-form`, and `data-ready` when they
 * are), a submit is held rather than sent natively (which would reload the page with the fields in the URL)
 * and made again once the form is live. Likewise a click on a button or link of a part whose code loads after
 * hydration (`data-lazy-part` without `data-ready`), which React would drop: it is marked and made again once
 * the part is live (./lazy-form). Inline in the document, so it holds from first paint, before hydration.
 */
const script = [
  `document.addEventListener('submit',function(e){var f=e.target;if(!(f instanceof HTMLFormElement)||!f.hasAttribute('data-action-form')||f.dataset.ready)return;e.preventDefault();f.dataset.pendingSubmit='1';},true);`,
  `document.addEventListener('click',function(e){var t=e.target instanceof Element?e.target.closest('button,a'):null;var p=t?t.closest('[data-lazy-part]'):null;if(!p||p.dataset.ready)return;e.preventDefault();e.stopPropagation();t.dataset.pendingClick='1';},true);`,
].join('');

export function HoldEarlyActions() {
  return <script dangerouslySetInnerHTML={{ __html: script }} />;
}
