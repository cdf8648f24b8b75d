/**
 * Raised when the server says the session is gone (an action's `sessionEnded`, a data route's 401, an upload's
 * 401). The sign-in prompt (components/auth/session-prompt) listens: the person signs in again over the page,
 * so what they typed and uploaded stays where it is.
 */
const listeners = new Set<() => void>();

export const sessionEnded = {
  signal() {
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};
