/* global document, location, history, window, Element */
// The atlas' only script (scripts/atlas.ts): hides error paths on request, and highlights a journey (a generated
// test path) in the diagrams when one is picked, from its link or the page's #p-<n> address. The pages read fully
// without it.
(function () {
  'use strict';
  var data = document.getElementById('atlas-paths');
  var paths = data ? JSON.parse(data.textContent || '{}') : {};
  var main = document.querySelector('main');
  var clear = document.querySelector('.clear-highlight');
  var toggle = document.querySelector('.show-errors');
  if (toggle && main) {
    toggle.addEventListener('change', function () {
      main.classList.toggle('no-errors', !toggle.checked);
    });
  }
  function light(id) {
    if (!main) return;
    var lit = document.querySelectorAll('.lit');
    for (var i = 0; i < lit.length; i += 1) lit[i].classList.remove('lit');
    var path = paths[id];
    if (!path) {
      main.classList.remove('lighting');
      if (clear) clear.hidden = true;
      return;
    }
    var transitions = {};
    var states = {};
    path.t.forEach(function (t) { transitions[t] = true; });
    path.s.forEach(function (s) { states[s] = true; });
    var edges = document.querySelectorAll('.diagram [data-t]');
    for (var e = 0; e < edges.length; e += 1) {
      var ts = (edges[e].getAttribute('data-t') || '').split(' ');
      if (ts.some(function (t) { return transitions[t]; })) edges[e].classList.add('lit');
    }
    var nodes = document.querySelectorAll('.diagram [data-s]');
    for (var n = 0; n < nodes.length; n += 1) {
      var ss = (nodes[n].getAttribute('data-s') || '').split(' ');
      if (ss.some(function (s) { return states[s]; })) nodes[n].classList.add('lit');
    }
    main.classList.add('lighting');
    if (clear) clear.hidden = false;
    var journey = document.getElementById(id);
    if (journey && journey.tagName === 'DETAILS') journey.open = true;
  }
  function fromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (/^p-\d+$/.test(id)) light(id);
  }
  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target.closest('a.highlight') : null;
    if (!target) return;
    event.preventDefault();
    var id = target.getAttribute('data-path') || '';
    history.replaceState(null, '', '#' + id);
    light(id);
    var figure = document.getElementById('diagram');
    if (figure) figure.scrollIntoView();
  });
  if (clear) {
    clear.addEventListener('click', function () {
      history.replaceState(null, '', location.pathname);
      light('');
    });
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
