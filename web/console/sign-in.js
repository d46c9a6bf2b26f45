// The sign-in link carries a one-time code in its fragment (#c=…), which the browser never sends to a
// server and which no log records: read it here, take it out of the address bar and history, and send
// it once in the sign-in form's POST body. Without the fragment, a code or token is typed in by hand.
const token = new URLSearchParams(location.hash.slice(1)).get("c");
if (token) {
  history.replaceState(null, "", location.pathname + location.search);
  const form = document.getElementById("sign-in");
  form.querySelector("#token").value = token;
  form.submit();
}
