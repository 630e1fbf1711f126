// The API reference page (`/` and `/docs` of `publicdata serve`): swagger-ui, served from the installed
// swagger-ui-dist package, draws this server's own /v1/openapi.json. The document names the server by the
// address serve printed (e.g. http://127.0.0.1:8080/v1); the page may have been opened as localhost, so
// "Try it out" is pointed at this page's own origin (a relative server URL), the only one the page's
// Content-Security-Policy lets it call. The key typed under "Authorize" stays in swagger-ui's memory
// (persistAuthorization off) and goes out only as an Authorization: Bearer header.
'use strict';
(function () {
  function start() {
    var target = document.getElementById('swagger-ui');
    fetch('/v1/openapi.json', { headers: { Accept: 'application/json' } })
      .then(function (r) {
        if (!r.ok) throw new Error('GET /v1/openapi.json answered ' + r.status);
        return r.json();
      })
      .then(function (spec) {
        spec.servers = [{ url: '/v1', description: 'this server' }];
        target.textContent = '';
        window.ui = window.SwaggerUIBundle({
          spec: spec,
          domNode: target,
          deepLinking: true,
          // no request to validator.swagger.io (its default badge): nothing leaves this origin
          validatorUrl: null,
          persistAuthorization: false,
          displayRequestDuration: true,
          defaultModelsExpandDepth: 0,
          docExpansion: 'list',
          filter: true,
          supportedSubmitMethods: ['get', 'head', 'post'],
        });
      })
      .catch(function (e) {
        target.textContent = 'The reference could not be drawn: ' + e.message + '. The document is at /v1/openapi.json.';
      });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
