// Mounts GraphiQL on /graphql/'s page. Queries go to the page's own path with the browser's
// session cookie and the CSRF token (the cookie the page names, csrftoken by default) that the
// API asks of a session's POST.
(function () {
  var root = document.getElementById("graphiql");
  var csrfCookie = root.getAttribute("data-csrf-cookie");

  function cookie(name) {
    var m = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
    return m ? decodeURIComponent(m[1]) : "";
  }

  async function fetcher(params, options) {
    var headers = Object.assign(
      { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": cookie(csrfCookie) },
      (options && options.headers) || {}
    );
    var response = await fetch(location.pathname, {
      method: "POST",
      credentials: "same-origin",
      headers: headers,
      body: JSON.stringify(params)
    });
    var text = await response.text();
    try {
      return JSON.parse(text);
    } catch (e) {
      // not JSON (a proxy's error page): shown as an error rather than lost
      return { errors: [{ message: response.status + " " + text }] };
    }
  }

  var defaultQuery =
    "{\n" +
    "  device_list(pagination: {offset: 0, limit: 5}) {\n" +
    "    id\n" +
    "    name\n" +
    "    site { name }\n" +
    "    interfaces { name ip_addresses { address vrf { name } } }\n" +
    "  }\n" +
    "}\n";

  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, { fetcher: fetcher, defaultQuery: defaultQuery })
  );
})();
