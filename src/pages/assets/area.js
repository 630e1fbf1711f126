// The area page of `publicdata serve` (`/area/{postcode}`), and the same page written to one file by
// `publicdata area … --html`. Served, it carries no data: it asks this server for GET /v1/area/{postcode}
// and, for the map's points, the requests each section lists under `map` (the section's own domain chose
// them: the same circle and months). It draws the sections there are. The key the user types goes out only as an Authorization
// header; it is kept in memory and in sessionStorage (this tab only), never in a URL or localStorage.
// In a written file the answers are embedded in <script type="application/json" id="area-data"> and
// nothing is fetched. Everything is drawn from the data: an SVG map (no tiles), charts and tables; every
// figure links to the request path behind it. Colours: Okabe-Ito (colour-blind safe), shapes per layer.
'use strict';
(function () {
  var SVGNS = 'http://www.w3.org/2000/svg';
  // Okabe & Ito (2008) "Color Universal Design": seven colours for crime categories, black kept for text.
  var OKABE = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7'];
  var OTHER = '#8c8c8c';
  var KEY_SLOT = 'publicdata.key';
  var PER_PAGE = 100;
  /** At most this many pages of points per layer (100 each); a larger layer says how many it left out. */
  var MAX_PAGES = 20;
  var main = document.getElementById('main');
  var embedded = document.getElementById('area-data');
  var key = null;
  try { key = window.sessionStorage.getItem(KEY_SLOT); } catch (e) { key = null; }
  var authMeta = document.querySelector('meta[name="publicdata-auth"]');
  var needsKey = !!authMeta && authMeta.getAttribute('content') === 'bearer';

  function h(tag, attrs, kids) { return build(document.createElement(tag), attrs, kids); }
  function s(tag, attrs, kids) { return build(document.createElementNS(SVGNS, tag), attrs, kids); }
  function build(n, attrs, kids) {
    for (var k in attrs || {}) if (attrs[k] !== undefined && attrs[k] !== null) n.setAttribute(k, String(attrs[k]));
    (kids || []).forEach(function (c) { if (c !== null && c !== undefined) n.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c))); });
    return n;
  }
  /** Identifiers and years are shown as they are (no thousands separator). */
  var PLAIN = /(^|[._])(urn|id|year|code|fhrs_id|count_point_id)$|_id$|year/;
  function fmt(v, k) {
    if (typeof v === 'number' && k && PLAIN.test(k)) return String(v);
    if (typeof v === 'number') return Number.isInteger(v) ? v.toLocaleString('en-GB') : v.toLocaleString('en-GB', { maximumFractionDigits: 3 });
    if (v === null || v === undefined) return '—';
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    return String(v);
  }
  function money(v) { return typeof v === 'number' ? '£' + v.toLocaleString('en-GB', { maximumFractionDigits: 0 }) : fmt(v); }
  function label(k) { return String(k).replace(/_/g, ' '); }
  function say(text) { main.textContent = ''; main.appendChild(h('p', { class: 'status', role: 'status' }, [text])); }
  function sourcesOf(sec) { return !sec || !sec.source ? [] : Array.isArray(sec.source) ? sec.source : [sec.source]; }
  /** A request path as a link (served) or as text (a written file has no server). */
  function pathLink(p) { return embedded ? h('code', {}, [p]) : h('a', { href: p }, [h('code', {}, [p])]); }
  function dataLine(paths) {
    var p = h('p', { class: 'src' }, ['Data: ']);
    paths.forEach(function (x, i) { if (i) p.appendChild(document.createTextNode(' · ')); p.appendChild(pathLink(x)); });
    return p;
  }

  // ---- fetching (served page only) ----
  function api(path) {
    var headers = { Accept: 'application/json' };
    if (key) headers.Authorization = 'Bearer ' + key;
    return fetch(path, { headers: headers, credentials: 'omit', cache: 'no-cache' }).then(function (r) {
      return r.json().then(function (j) { return { status: r.status, body: j }; }, function () { return { status: r.status, body: null }; });
    });
  }
  function askKey(message) {
    main.setAttribute('aria-busy', 'false');
    main.textContent = '';
    var input = h('input', { id: 'apikey', type: 'password', autocomplete: 'off', spellcheck: 'false', required: '' });
    var form = h('form', { class: 'keyform', 'aria-labelledby': 'keyhead' }, [
      h('h1', { id: 'keyhead' }, ['This server needs an API key']),
      h('p', {}, [message + ' The key is sent only as an Authorization header and kept for this tab only.']),
      h('label', { for: 'apikey' }, ['API key']), input, h('button', { type: 'submit', class: 'act' }, ['Show the area']),
    ]);
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      key = input.value.trim();
      try { window.sessionStorage.setItem(KEY_SLOT, key); } catch (e) { /* memory only */ }
      load();
    });
    main.appendChild(form);
    input.focus();
  }
  /** Every page of a point route (at most MAX_PAGES): records, the route's total and the path asked. */
  function pages(path) {
    var got = [];
    function next(n) {
      return api(path + '&per_page=' + PER_PAGE + '&page=' + n).then(function (r) {
        if (r.status !== 200) return { path: path, records: got, total: null, error: r.body && r.body.error ? r.body.error.message : 'HTTP ' + r.status };
        got = got.concat(r.body.data || []);
        var pg = r.body.pagination || { total_pages: 1, total: got.length };
        if (n < pg.total_pages && n < MAX_PAGES) return next(n + 1);
        return { path: path, records: got, total: pg.total };
      });
    }
    return next(1);
  }
  /** Several point requests as one layer (the collisions of each year). */
  function merged(list) {
    return Promise.all(list.map(pages)).then(function (res) {
      return { path: list, records: [].concat.apply([], res.map(function (x) { return x.records; })), total: null, error: res.map(function (x) { return x.error; }).filter(Boolean)[0] };
    });
  }
  /**
   * The point requests behind the map: each ok section's `map` (its own domain chose them; area --html
   * reads the same field, src/pages/area-html.ts). A layer of one request is paged; a layer of several
   * (or one its section reads beyond the circle) is merged, and drawn clipped to the circle.
   */
  function pointPaths(data) {
    var loc = data.postcode && data.postcode.location;
    var secs = data.sections || {};
    var out = {};
    if (!loc) return out;
    Object.keys(secs).forEach(function (n) {
      var sec = secs[n];
      if (!sec || sec.status !== 'ok' || !Array.isArray(sec.map)) return;
      sec.map.forEach(function (l) { out[l.layer] = l.paths.length === 1 && !l.clip ? l.paths[0] : l.paths; });
    });
    return out;
  }
  function load() {
    if (needsKey && !key) return askKey('Give the API key this server was started with.');
    var pc = location.pathname.slice('/area/'.length);
    try { pc = decodeURIComponent(pc); } catch (e) { /* a stray % is left as typed; the route says what is wrong */ }
    var q = new URLSearchParams(location.search);
    var keep = new URLSearchParams();
    ['radius_km', 'months', 'sections'].forEach(function (k) { if (q.get(k)) keep.set(k, q.get(k)); });
    var path = '/v1/area/' + encodeURIComponent(pc) + (String(keep) ? '?' + keep : '');
    say('Loading the area around ' + pc + '…');
    document.title = pc + ': area profile · publicdata';
    api(path).then(function (r) {
      if (r.status === 401) return askKey(key ? 'The key was refused.' : 'Give the API key this server was started with.');
      if (r.status !== 200) {
        main.setAttribute('aria-busy', 'false');
        return say((r.body && r.body.error ? r.body.error.code + ': ' + r.body.error.message : 'The server answered ' + r.status) + ' (' + path + ')');
      }
      var paths = pointPaths(r.body.data);
      var names = Object.keys(paths);
      return Promise.all(names.map(function (n) { return Array.isArray(paths[n]) ? merged(paths[n]) : pages(paths[n]); })).then(function (res) {
        var points = {};
        names.forEach(function (n, i) { points[n] = res[i]; });
        render({ path: path, area: r.body, points: points });
      });
    }).catch(function (e) { main.setAttribute('aria-busy', 'false'); say('The area could not be loaded: ' + e.message); });
  }

  // ---- drawing ----
  function render(doc) {
    var data = doc.area.data;
    var secs = data.sections || {};
    var pc = data.postcode || {};
    main.textContent = '';
    main.setAttribute('aria-busy', 'false');
    var head = heading(pc, doc);
    main.appendChild(head);
    var figs = h('div', { class: 'figs' }, []);
    figs.appendChild(mapFigure(pc, secs, doc.points || {}, (doc.area.meta || {}).radius_km));
    var crime = secs.crime;
    if (crime && crime.status === 'ok') figs.appendChild(barFigure('chart-crime-month', 'Crimes by month', pairs(crime.by_month, 'month', 'count'), fmt, sourcesOf(crime)));
    var prop = secs.property;
    var pp = prop && prop.status === 'ok' && prop.price_paid ? (prop.price_paid.sector && prop.price_paid.sector.sales ? prop.price_paid.sector : prop.price_paid.district) : null;
    if (pp) figs.appendChild(barFigure('chart-sales-type', 'Sales by property type (' + fmt(pp.area) + ')', pairs(pp.by_property_type, 'property_type', 'sales'), fmt, sourcesOf(prop)));
    main.appendChild(figs);
    var nav = h('nav', { class: 'toc', 'aria-label': 'Sections' }, [h('h2', {}, ['Sections'])]);
    var list = h('ul', {}, []);
    Object.keys(secs).forEach(function (n) { list.appendChild(h('li', {}, [h('a', { href: '#sec-' + n }, [label(n)]), ' ', h('span', { class: 'st st-' + secs[n].status }, [secs[n].status])])); });
    nav.appendChild(list);
    main.appendChild(nav);
    Object.keys(secs).forEach(function (n) { main.appendChild(sectionBlock(n, secs[n])); });
    main.appendChild(dataLine([doc.path]));
    document.title = (pc.postcode || 'Area') + ': area profile · publicdata';
    // the answer replaced the key form or the loading line: take the reader to its heading
    if (!embedded) head.querySelector('h1').focus();
  }

  function heading(pc, doc) {
    var name = function (a) { return a ? (a.name || a.code) : null; };
    var facts = [
      ['Local authority', name(pc.local_authority)], ['Ward', name(pc.ward)], ['Constituency', name(pc.parliamentary_constituency)],
      ['Region', name(pc.region)], ['Country', name(pc.country)], ['Police force area', name(pc.police_force_area)],
      ['LSOA (2021)', name(pc.lsoa)], ['Rural/urban', pc.rural_urban ? pc.rural_urban.label : null],
      ['Location', pc.location ? pc.location.latitude.toFixed(5) + ', ' + pc.location.longitude.toFixed(5) : 'no grid reference'],
      ['Status', pc.status ? pc.status + (pc.terminated ? ' (' + pc.terminated + ')' : '') : null],
    ];
    var dl = h('dl', { class: 'facts' }, []);
    facts.forEach(function (f) { if (f[1] !== null && f[1] !== undefined) { dl.appendChild(h('dt', {}, [f[0]])); dl.appendChild(h('dd', {}, [f[1]])); } });
    var meta = doc.area.meta || {};
    var sub = 'Within ' + fmt(meta.radius_km) + ' km' + (meta.months ? ', ' + fmt(meta.months) + ' months' : '');
    return h('header', { class: 'head' }, [h('h1', { tabindex: '-1' }, [(pc.postcode || '?') + ' ', h('span', { class: 'sub' }, [sub])]), dl]);
  }

  /** [{label, value}] from an array of objects or an object of counts. */
  function pairs(x, lk, vk) {
    if (Array.isArray(x)) return x.map(function (o) { return { label: String(o[lk]), value: Number(o[vk] || 0) }; });
    return Object.keys(x || {}).map(function (k) { return { label: k, value: Number(x[k] || 0) }; });
  }

  function barFigure(id, title, items, show, paths) {
    var W = 560, row = 22, left = 150, H = Math.max(1, items.length) * row + 10;
    var max = Math.max.apply(null, items.map(function (i) { return i.value; }).concat([1]));
    var g = s('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-labelledby': id + '-t', class: 'chart' }, [s('title', { id: id + '-t' }, [title + ': ' + items.map(function (i) { return i.label + ' ' + show(i.value); }).join(', ')])]);
    items.forEach(function (it, i) {
      var y = 5 + i * row, w = Math.round((W - left - 70) * it.value / max);
      g.appendChild(s('text', { x: left - 6, y: y + 15, 'text-anchor': 'end', class: 'lbl' }, [it.label]));
      g.appendChild(s('rect', { x: left, y: y + 3, width: Math.max(w, 1), height: row - 6, class: 'bar' }, [s('title', {}, [it.label + ': ' + show(it.value)])]));
      g.appendChild(s('text', { x: left + w + 6, y: y + 15, class: 'val' }, [show(it.value)]));
    });
    if (!items.length) g.appendChild(s('text', { x: 10, y: 20 }, ['no data']));
    return h('figure', { id: id, class: 'fig' }, [h('figcaption', {}, [h('h2', {}, [title])]), g, dataLine(paths)]);
  }

  function mapFigure(pc, secs, points, radius) {
    var loc = pc.location;
    var fig = h('figure', { id: 'map', class: 'fig map' }, [h('figcaption', {}, [h('h2', {}, ['Map'])])]);
    if (!loc) { fig.appendChild(h('p', {}, ['The directory has no grid reference for this postcode: no map.'])); return fig; }
    // the answer's circle (meta.radius_km), else the first section's that has one
    var rkm = radius || Object.keys(secs).map(function (n) { return secs[n].radius_km; }).filter(Boolean)[0] || 1;
    var S = 600, C = 300, R = 260, k = R / rkm;
    var cosl = Math.cos(loc.latitude * Math.PI / 180);
    var xy = function (lat, lng) { return [C + (lng - loc.longitude) * 111.32 * cosl * k, C - (lat - loc.latitude) * 110.574 * k]; };
    var crimes = points.crime ? points.crime.records.filter(function (c) { return c.location; }) : [];
    var cats = {};
    crimes.forEach(function (c) { cats[c.category] = (cats[c.category] || { n: 0, label: c.category_label || c.category }); cats[c.category].n++; });
    var order = Object.keys(cats).sort(function (a, b) { return cats[b].n - cats[a].n || (a < b ? -1 : 1); });
    var colour = {};
    order.forEach(function (c, i) { colour[c] = i < OKABE.length ? OKABE[i] : OTHER; });
    var schools = points.schools ? points.schools.records.filter(function (x) { return x.location; }) : [];
    var food = points.food ? points.food.records.filter(function (x) { return x.location; }) : [];
    // collisions: the authority's, kept when inside the drawn circle (the same projection as the map)
    var inCircle = function (lat, lng) { var p = xy(lat, lng); return Math.pow(p[0] - C, 2) + Math.pow(p[1] - C, 2) <= R * R; };
    var collisions = points.collisions ? points.collisions.records.filter(function (x) { return x.latitude !== null && x.latitude !== undefined && inCircle(Number(x.latitude), Number(x.longitude)); }) : [];
    var severe = function (x) { return x.collision_severity === 1 || x.collision_severity === 2; };
    var low = function (f) { return f.rating && (f.rating.numeric === 0 || f.rating.numeric === 1 || f.rating.numeric === 2); };
    var desc = crimes.length + ' crimes, ' + schools.length + ' schools and ' + food.length + ' food premises (' + food.filter(low).length + ' rated 0 to 2) and ' + collisions.length + ' collisions within ' + rkm + ' km of ' + pc.postcode;
    var svg = s('svg', { viewBox: '0 0 ' + S + ' ' + S, role: 'img', 'aria-labelledby': 'map-t map-d', class: 'mapsvg' }, [
      s('title', { id: 'map-t' }, ['Map around ' + pc.postcode]), s('desc', { id: 'map-d' }, [desc]),
      s('rect', { x: 0, y: 0, width: S, height: S, class: 'sea' }),
      s('circle', { cx: C, cy: C, r: R, class: 'radius' }),
    ]);
    var layer = function (name) { var g = s('g', { 'data-layer': name, class: 'layer-' + name }); svg.appendChild(g); return g; };
    var gc = layer('crime');
    crimes.forEach(function (c) {
      var p = xy(c.location.latitude, c.location.longitude);
      gc.appendChild(s('circle', { cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: 4, fill: colour[c.category], class: 'pt' }, [s('title', {}, [(c.category_label || c.category) + ', ' + c.month + (c.location.description ? ', ' + c.location.description : '')])]));
    });
    var gs = layer('schools');
    schools.forEach(function (x) {
      var p = xy(x.location.latitude, x.location.longitude);
      gs.appendChild(s('rect', { x: (p[0] - 5).toFixed(1), y: (p[1] - 5).toFixed(1), width: 10, height: 10, class: 'school' }, [s('title', {}, [x.name + ' (' + x.phase + ')'])]));
    });
    var gf = layer('food');
    food.forEach(function (f) {
      var p = xy(f.location.latitude, f.location.longitude);
      var d = 'M' + p[0].toFixed(1) + ',' + (p[1] - 6).toFixed(1) + ' l6,10 h-12 z';
      gf.appendChild(s('path', { d: d, class: low(f) ? 'food low' : 'food' }, [s('title', {}, [f.business_name + ': rating ' + (f.rating ? f.rating.value : '?')])]));
    });
    var gx = layer('collisions');
    collisions.forEach(function (x) {
      var p = xy(Number(x.latitude), Number(x.longitude));
      var d = 'M' + p[0].toFixed(1) + ',' + (p[1] - 6).toFixed(1) + ' l6,6 l-6,6 l-6,-6 z';
      gx.appendChild(s('path', { d: d, class: severe(x) ? 'crash severe' : 'crash' }, [s('title', {}, ['Collision ' + (x.collision_date || '') + ', ' + (x.collision_severity_label || '')])]));
    });
    svg.appendChild(s('g', { class: 'pc' }, [s('circle', { cx: C, cy: C, r: 7 }), s('path', { d: 'M' + (C - 11) + ',' + C + 'h22M' + C + ',' + (C - 11) + 'v22' }), s('title', {}, [pc.postcode])]));
    // scale bar (bottom left) and north arrow (top right)
    var nice = [0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5].filter(function (v) { return v <= rkm / 2; }).pop() || rkm / 2;
    var bar = nice * k;
    svg.appendChild(s('g', { class: 'scale' }, [s('path', { d: 'M20,575 v-6 M20,572 h' + bar.toFixed(1) + ' M' + (20 + bar).toFixed(1) + ',575 v-6' }), s('text', { x: 20, y: 562 }, [nice < 1 ? Math.round(nice * 1000) + ' m' : nice + ' km'])]));
    svg.appendChild(s('g', { class: 'north' }, [s('path', { d: 'M570,20 l10,26 l-10,-7 l-10,7 z' }), s('text', { x: 570, y: 62, 'text-anchor': 'middle' }, ['N'])]));
    fig.appendChild(svg);
    fig.appendChild(legend(order, cats, colour, schools.length, food.length, food.filter(low).length, secs, points, collisions.length, collisions.filter(severe).length));
    var paths = [].concat.apply([], ['crime', 'schools', 'food', 'collisions'].filter(function (n) { return points[n]; }).map(function (n) { return points[n].path; }));
    fig.appendChild(dataLine(paths));
    return fig;
  }

  function swatch(kind, fill) {
    var g = s('svg', { viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true', class: 'sw' });
    if (kind === 'crime') g.appendChild(s('circle', { cx: 8, cy: 8, r: 5, fill: fill }));
    else if (kind === 'school') g.appendChild(s('rect', { x: 3, y: 3, width: 10, height: 10, class: 'school' }));
    else if (kind === 'food') g.appendChild(s('path', { d: 'M8,2 l6,11 h-12 z', class: fill }));
    else if (kind === 'crash') g.appendChild(s('path', { d: 'M8,2 l6,6 l-6,6 l-6,-6 z', class: fill }));
    else g.appendChild(s('circle', { cx: 8, cy: 8, r: 6, class: 'radius' }));
    return g;
  }
  function legend(order, cats, colour, nSchools, nFood, nLow, secs, points, nCrash, nSevere) {
    var ul = h('ul', { class: 'legend', 'aria-label': 'Legend' }, []);
    var item = function (sw, text) { ul.appendChild(h('li', {}, [sw, ' ', text])); };
    item(swatch('radius'), 'the circle of the search');
    order.forEach(function (c) { item(swatch('crime', colour[c]), cats[c].label + ': ' + cats[c].n); });
    if (points.crime) item(h('span', {}, []), 'crimes drawn: ' + points.crime.records.filter(function (c) { return c.location; }).length + ' of ' + fmt(points.crime.total) + (points.crime.error ? ' (' + points.crime.error + ')' : ''));
    if (points.schools) item(swatch('school'), 'schools: ' + nSchools);
    if (points.food) { item(swatch('food', 'food low'), 'food premises rated 0 to 2: ' + nLow); item(swatch('food', 'food'), 'other food premises: ' + (nFood - nLow)); }
    if (points.collisions) { item(swatch('crash', 'crash severe'), 'collisions, fatal or serious: ' + nSevere); item(swatch('crash', 'crash'), 'collisions, slight: ' + (nCrash - nSevere)); }
    else if (secs.road_safety) item(h('span', {}, []), 'collisions: ' + (secs.road_safety.status === 'ok' ? 'none read' : 'road safety is ' + secs.road_safety.status));
    return ul;
  }

  function sectionBlock(name, sec) {
    var id = 'sec-' + name;
    var box = h('section', { id: id, 'aria-labelledby': id + '-h', class: 'sec' }, [h('h2', { id: id + '-h' }, [label(name)])]);
    if (sec.status !== 'ok') {
      var why = { not_synced: 'Not synced on this server' + (sec.sync ? ': run ' : ''), no_coverage: 'The data does not cover this place', no_location: 'The postcode has no grid reference' }[sec.status] || sec.status;
      box.appendChild(h('p', { class: 'st st-' + sec.status }, [why, sec.sync ? h('code', {}, [sec.sync]) : null, sec.note ? ': ' + sec.note : null]));
      return box;
    }
    if (sec.as_of) box.appendChild(h('p', { class: 'asof' }, ['As of ' + sec.as_of]));
    var rest = {};
    Object.keys(sec).forEach(function (k) { if (['status', 'as_of', 'source'].indexOf(k) < 0) rest[k] = sec[k]; });
    box.appendChild(table(rest, name));
    box.appendChild(dataLine(sourcesOf(sec)));
    return box;
  }

  /** A figure's values as a table: scalars as rows, objects nested, arrays of objects as their own table. */
  function table(obj, caption) {
    if (Array.isArray(obj)) return listTable(obj, caption);
    var t = h('table', { class: 'kv' }, [h('caption', { class: 'visually-hidden' }, [label(caption)])]);
    var body = h('tbody', {}, []);
    Object.keys(obj).forEach(function (k) {
      var v = obj[k];
      var cell = v !== null && typeof v === 'object' ? table(v, k) : /price|median|mean|gross|net|bill|band_d|average|pay/.test(k) && typeof v === 'number' ? money(v) : fmt(v, k);
      body.appendChild(h('tr', {}, [h('th', { scope: 'row' }, [label(k)]), h('td', {}, [cell])]));
    });
    t.appendChild(body);
    return h('div', { class: 'tw' }, [t]);
  }
  function flat(o, pre, out) {
    Object.keys(o || {}).forEach(function (k) {
      var v = o[k];
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) flat(v, pre + k + '.', out);
      else out[pre + k] = Array.isArray(v) ? v.join(', ') : v;
    });
    return out;
  }
  function listTable(arr, caption) {
    if (!arr.length) return h('p', {}, ['none']);
    if (typeof arr[0] !== 'object') return h('p', {}, [arr.map(fmt).join(', ')]);
    var rows = arr.map(function (o) { return flat(o, '', {}); });
    var cols = [];
    rows.forEach(function (r) { Object.keys(r).forEach(function (c) { if (cols.indexOf(c) < 0) cols.push(c); }); });
    var t = h('table', { class: 'list' }, [h('caption', { class: 'visually-hidden' }, [label(caption)]), h('thead', {}, [h('tr', {}, cols.map(function (c) { return h('th', { scope: 'col' }, [label(c)]); }))])]);
    t.appendChild(h('tbody', {}, rows.map(function (r) { return h('tr', {}, cols.map(function (c) { return h('td', {}, [/price/.test(c) && typeof r[c] === 'number' ? money(r[c]) : fmt(r[c], c)]); })); })));
    return h('div', { class: 'tw' }, [t]);
  }

  if (embedded) {
    try { render(JSON.parse(embedded.textContent)); } catch (e) { say('The embedded area data could not be read: ' + e.message); }
  } else load();
})();
