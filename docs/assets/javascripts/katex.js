// Render the maths pymdownx.arithmatex marks (\( ... \) inline, \[ ... \] displayed) with the KaTeX the site
// serves itself (docs/assets/katex): nothing is loaded from the network.  Material's document$ fires on every
// page, instant navigation included.
function renderMaths(body) {
  renderMathInElement(body, {
    delimiters: [
      { left: "\\(", right: "\\)", display: false },
      { left: "\\[", right: "\\]", display: true },
    ],
    throwOnError: false,
  });
}
if (typeof document$ !== "undefined") {
  document$.subscribe(({ body }) => renderMaths(body));
} else {
  document.addEventListener("DOMContentLoaded", () => renderMaths(document.body));
}
