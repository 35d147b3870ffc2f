/**
 * The cookie that says a session may exist. The session cookie itself is httpOnly, so the page cannot
 * tell whether anyone is signed in without asking the server; asking when nobody is answers 401, which
 * the browser logs as a console error on every visit to the sign-in page. The server sets this readable
 * twin (holding nothing secret) beside the session cookie and clears it at sign-out; the client asks who
 * is signed in only while it is there, and drops it when the server says the session is gone.
 */
export const SESSION_MARKER_COOKIE = 'signed-in';
