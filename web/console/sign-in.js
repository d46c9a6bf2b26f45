// The sign-in link carries the organiser's token in its fragment (#t=…), which the browser never sends
// to a server and which no log records: read it here, take it out of the address bar and history, and
// send it once in the sign-in form's POST body. Without the fragment, the form is typed in by hand.
const token = new URLSearchParams(location.hash.slice(1)).get("t");
if (token) {
  history.replaceState(null, "", location.pathname + location.search);
  const form = document.getElementById("sign-in");
  form.querySelector("#token").value = token;
  form.submit();
}
