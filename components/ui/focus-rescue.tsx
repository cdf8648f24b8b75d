'use client';

import { useEffect } from 'react';

const HEADING = 'h1, h2, h3, h4, h5, h6';
const shown = (el: Element) => el.isConnected && el.getClientRects().length > 0;

/** The nearest heading on screen around where the lost element was: the section it belonged to. */
function headingNear(trail: Element[]): HTMLElement | null {
  for (let el: Element | null = trail.find((a) => a.isConnected) ?? null; el; el = el.parentElement) {
    const heading = Array.from(el.querySelectorAll<HTMLElement>(HEADING)).find(shown);
    if (heading) return heading;
  }
  return null;
}

/**
 * When the focused element leaves the page (the button of an action that is done, a row a refresh took
 * away, a list that closed), the browser drops focus on <body> and a keyboard or screen-reader user starts
 * again from the top. This puts it back: on that element if it was only disabled for a moment (a busy
 * ./button is not disabled, so keeps its focus, but other controls are), else on the heading of the section
 * it was in (made focusable with tabIndex=-1).
 * A dialog's opener gets focus back from the browser itself when the dialog closes (./dialog); this only
 * steps in when nothing else placed focus.
 */
export function FocusRescue() {
  useEffect(() => {
    // The element that has (or last had) focus and the elements around it, innermost first, as they were
    // then; `waiting` once it lost focus by being disabled.
    type Seen = { el: HTMLElement; trail: Element[]; waiting?: boolean };
    let last: Seen | null = null;
    const lost = () => !document.activeElement || document.activeElement === document.body;
    const toHeading = (seen: Seen) => {
      last = null;
      const heading = headingNear(seen.trail);
      if (!heading) return;
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      heading.focus();
    };

    const track = (el: EventTarget | null) => {
      if (!(el instanceof HTMLElement) || el === document.body) return;
      const trail: Element[] = [];
      for (let a = el.parentElement; a; a = a.parentElement) trail.push(a);
      last = { el, trail };
    };
    const onFocusIn = (event: FocusEvent) => track(event.target);
    // Chromium reports focus leaving an element it is about to take out of the page while the element is
    // still in it: whether it was taken away, disabled for a moment or left by the person shows only once
    // this task is over (by then a closing dialog has handed focus back to its opener, if it could).
    const settle = (seen: Seen) => {
      if (last !== seen || !lost()) return;
      if (!shown(seen.el)) toHeading(seen);
      else if (seen.el.matches(':disabled')) seen.waiting = true;
      else last = null; // the person moved away (a click on the page): theirs to keep
    };
    const onFocusOut = (event: FocusEvent) => {
      const seen = last;
      if (seen?.el === event.target) setTimeout(() => settle(seen), 0);
    };
    // A disabled element that had focus: focus comes back when it is enabled again, or goes to its
    // section's heading if it is taken away instead.
    const observer = new MutationObserver(() => {
      if (!last?.waiting || !lost()) return;
      if (!shown(last.el)) toHeading(last);
      else if (!last.el.matches(':disabled')) last.el.focus();
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
    document.addEventListener('focusin', onFocusIn);
    // This starts at hydration: what took focus before then (a field tabbed into while the page loaded) is
    // tracked from here.
    track(document.activeElement);
    document.addEventListener('focusout', onFocusOut);
    // Says it is on the watch: a browser test checks it is, before any code loaded after hydration arrives.
    document.documentElement.dataset.focusRescue = 'on';
    return () => {
      delete document.documentElement.dataset.focusRescue;
      observer.disconnect();
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
    };
  }, []);
  return null;
}
