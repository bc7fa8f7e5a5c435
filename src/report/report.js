/* report.js: builds the iolab report page (docs/report.md) from the JSON that `iolab report`
 * embeds in <script type="application/json" id="iolab-data">, drawing the charts with Chart.js
 * (inlined after this script; it is used once the page has loaded). Only charts with data are
 * made. For tests and readers, document.body.dataset records:
 *   chartsExpected  how many charts the page created
 *   chartsRendered  how many Chart.js drew onto a canvas of non-zero size (afterRender hook)
 *   errors          every error (window.onerror, rejected promises, caught exceptions), also
 *                   shown in a red box at the top of the page ("" when none)
 *   pageWidth       the page's scroll width once built (wider than the window: something runs off)
 *   reportDone      "1" once the page was built
 * and each chart's box (div.chart) its layout (recordLayout). Layout rules (docs/report.md): a chart
 * with more than maxSeries series is split into panels (small multiples) by the parameter that
 * needs the fewest; a panel's plot has a fixed height and its legend beside it, whose entries hide
 * or show their series; latency is in µs, ms or s by magnitude; tables scroll in their box. */
(function () {
'use strict';

const body = document.body;
const errors = [];
let expected = 0, rendered = 0;
body.dataset.errors = '';
body.dataset.chartsExpected = '0';
body.dataset.chartsRendered = '0';

function fail(msg) {
	errors.push(String(msg));
	body.dataset.errors = errors.join('\n');
	const box = document.getElementById('errors');
	if (box) {
		box.hidden = false;
		box.textContent = 'Errors while building this report:\n' + errors.join('\n');
	}
}

window.onerror = function (msg, src, line, col) {
	fail(msg + (line ? ' (line ' + line + ':' + col + ')' : ''));
	return false;
};
/* Chart.js says what went wrong through console.error: that is an error of the page too. */
const consoleError = console.error;
console.error = function (...args) {
	fail('console.error: ' + args.map(a => a && a.message ? a.message : String(a)).join(' '));
	consoleError.apply(console, args);
};
window.addEventListener('unhandledrejection', function (e) {
	fail('unhandled rejection: ' + (e.reason && e.reason.message ? e.reason.message : e.reason));
});

/* ---- small helpers ---- */

function el(tag, attrs, ...children) {
	const e = document.createElement(tag);
	for (const k in attrs || {})
		e.setAttribute(k, attrs[k]);
	for (const c of children)
		if (c !== null && c !== undefined)
			e.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
	return e;
}

function isNum(v) {
	return typeof v === 'number' && isFinite(v);
}

function fmtNum(v) {
	if (!isNum(v))
		return '–';
	const a = Math.abs(v);
	if (a >= 100)
		return Math.round(v).toLocaleString('en-US');
	return v.toFixed(a >= 10 ? 1 : 2);
}

/* Sizes as iolab prints them: 512, 4k, 64k, 1m, 2g (1024s). */
function fmtSize(b) {
	if (!isNum(b))
		return 'mix';
	const units = ['', 'k', 'm', 'g', 't'];
	let u = 0;
	while (u < units.length - 1 && b >= 1024 && b % 1024 === 0) {
		b /= 1024;
		u++;
	}
	return b + units[u];
}

function fmtBytes(b) {
	if (!isNum(b))
		return '–';
	const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
	let u = 0;
	while (u < units.length - 1 && b >= 1000) {
		b /= 1000;
		u++;
	}
	return (u ? b.toFixed(1) : b) + ' ' + units[u];
}

function unique(list) {
	return Array.from(new Set(list));
}

/* ---- what a point is ---- */

/* The parameters that tell points apart, each with how to read it and say it. */
const params = [
	{key: 'pattern', get: p => p.pattern, say: v => v},
	{key: 'bs', get: p => isNum(p.bs) ? p.bs : null, say: v => 'bs ' + fmtSize(v)},
	{key: 'read_pct', get: p => p.read_pct, say: v => v + '% read'},
	{key: 'workers', get: p => p.worker_count ?? p.workers, say: v => v + ' workers'},
	{key: 'qd', get: p => isNum(p.clients) || isNum(p.target_iops) ? null : p.qd, say: v => 'qd ' + v},
	{key: 'clients', get: p => isNum(p.clients) ? p.clients : null, say: v => v + ' clients'},
	{key: 'think_s', get: p => isNum(p.think_s) ? p.think_s : null, say: v => 'think ' + v * 1000 + ' ms'},
	{key: 'target_iops', get: p => isNum(p.target_iops) ? p.target_iops : null, say: v => 'rate ' + v + '/s'},
	{key: 'host_scheduler', get: p => p.host_scheduler || null, say: v => 'host ' + v},
	{key: 'level', get: p => p.volume ? p.volume.level : null, say: v => v},
	{key: 'drives', get: p => p.volume ? p.volume.drives : null, say: v => v + ' drives'},
	{key: 'stripe', get: p => p.volume ? p.volume.stripe : null, say: v => 'stripe ' + fmtSize(v)},
	{key: 'cache_bytes', get: p => isNum(p.cache_bytes) ? p.cache_bytes : null, say: v => 'cache ' + fmtSize(v)},
	{key: 'write_policy', get: p => p.write_policy || null, say: v => v},
	{key: 'model', get: p => p.model || null, say: v => v},
];

/* The swept settings of a simulated path (points[].settings: "controller.read-ahead" and its
 * value) are parameters too, one each, named as the setting: a series' name says them. */
function addSettingParams(runs) {
	for (const run of runs)
		for (const p of runPoints(run)) {
			const set = p.settings && typeof p.settings === 'object' ? p.settings : {};
			for (const name of Object.keys(set))
				if (!params.some(q => q.key === 'set:' + name))
					params.push({key: 'set:' + name,
						     get: p => p.settings && name in p.settings ? p.settings[name] : null,
						     say: v => name + ' ' + v});
		}
}

/* The keys of the parameters whose value differs between the points. */
function varying(points) {
	return params.filter(q => unique(points.map(p => JSON.stringify(q.get(p)))).length > 1)
		.map(q => q.key);
}

/* A point's parameters as [[key, text], ...]: those in always and those that vary (vary), none of
 * skip. */
function pointParts(p, vary, skip, always) {
	const out = [];
	for (const q of params) {
		const v = q.get(p);
		if (!skip.includes(q.key) && v !== null && v !== undefined &&
		    (always.includes(q.key) || vary.includes(q.key)))
			out.push([q.key, q.say(v)]);
	}
	return out;
}

/* "file-server bs 4k qd 16": pattern, size and load always, the other parameters that vary. */
function pointName(p, vary) {
	return pointParts(p, vary, [], ['pattern', 'bs', 'qd', 'clients', 'target_iops'])
		.map(w => w[1]).join(' ');
}

/* ---- runs ---- */

function runName(run) {
	return run.label ? run.label : 'run ' + run.id;
}

function runPoints(run) {
	return run.doc && Array.isArray(run.doc.points) ? run.doc.points : [];
}

/* The target or the simulated model(s) of a run, from its config. */
function runTarget(doc) {
	const out = [];
	const cfgs = doc.config && Array.isArray(doc.config.runs) ? doc.config.runs : [];
	for (const c of cfgs) {
		if (c.path && c.path.config)
			out.push(c.path.config);
		else if (c.array && c.model)
			out.push(c.array.level + ' of ' + (c.array.drives || []).join(',') + ' × ' + c.model);
		else if (c.model)
			out.push(c.model);
		else if (Array.isArray(c.targets))
			out.push(...c.targets);
	}
	return unique(out).join(', ') || '–';
}

/* ---- charts: small multiples, a legend beside each plot ---- */

/* Ten colours that stay apart: Tableau 10, the default palette of Tableau since its version 10
 * (2016). A panel holds at most maxSeries series, so no colour repeats in one. Dash patterns tell
 * the runs apart where lines of several runs share a panel (sweeps). */
const palette = ['#4e79a7', '#e15759', '#59a14f', '#f28e2b', '#b07aa1', '#76b7b2', '#edc948',
		 '#9c755f', '#ff9da7', '#bab0ac'];
const dashes = [[], [6, 4], [2, 3], [10, 3, 2, 3]];
const maxSeries = 6;	/* lines, curves or bars per group in one panel */
const maxGroups = 12;	/* bar groups (categories) in one panel */

/* Called once Chart.js (inlined after this script) has loaded: counts the charts it draws and
 * records each one's layout on its box (recordLayout). */
function setupCharts() {
	Chart.defaults.animation = false;
	Chart.register({
		id: 'iolabCount',
		afterRender(chart) {
			keepPlotHeight(chart);
			recordLayout(chart);
			if (chart.$iolabCounted || !(chart.width > 0 && chart.height > 0))
				return;
			chart.$iolabCounted = true;
			rendered++;
			body.dataset.chartsRendered = String(rendered);
		},
	});
}

/* The plotted area keeps at least minPlot px whatever the axes take (long category labels,
 * rotated): the plot's box grows by what is missing, once, and Chart.js redraws on the resize. */
const minPlot = 260;
function keepPlotHeight(chart) {
	const a = chart.chartArea, box = chart.canvas.parentNode;
	if (!a || chart.$iolabGrown || a.bottom - a.top >= minPlot || !box)
		return;
	chart.$iolabGrown = true;
	box.style.height = Math.ceil(box.clientHeight + minPlot - (a.bottom - a.top)) + 'px';
}

function pageBox(r, dx, dy, w, h) {
	return [r.left + window.scrollX + dx, r.top + window.scrollY + dy, w, h].map(Math.round).join(',');
}

/* On the chart's box, for readers and tests: data-plot and data-legend (x,y,width,height of the
 * plotted area and of the legend, in page pixels), data-series, data-colors and data-dashes (each
 * series' colour and dash pattern, "|" between) and each axis' data-x-ticks / data-y-ticks (its tick labels) and title. */
function recordLayout(chart) {
	const box = chart.canvas.closest('.chart');
	const a = chart.chartArea;
	if (!box || !a)
		return;
	box.dataset.plot = pageBox(chart.canvas.getBoundingClientRect(), a.left, a.top,
				   a.right - a.left, a.bottom - a.top);
	const legend = box.querySelector('.legend');
	if (legend) {
		const r = legend.getBoundingClientRect();
		box.dataset.legend = pageBox(r, 0, 0, r.width, r.height);
	}
	const ds = chart.data.datasets;
	box.dataset.series = String(ds.length);
	box.dataset.colors = ds.map(d => d.borderColor).join('|');
	box.dataset.dashes = ds.map(d => (d.borderDash || []).join('-')).join('|');
	for (const id of ['x', 'y']) {
		const s = chart.scales[id];
		if (!s)
			continue;
		box.dataset[id + 'Ticks'] = s.ticks.map(t => [].concat(t.label).join(' '))
			.filter(l => l !== '').join('|');
		box.dataset[id + 'Title'] = s.options.title && s.options.title.text || '';
	}
}

/* Latency (µs) in the unit its magnitude asks for: µs below 1 ms, ms below 1 s, else s. */
function latUnit(maxUs) {
	return maxUs >= 1e6 ? {name: 's', f: 1e6} : maxUs >= 1e3 ? {name: 'ms', f: 1e3} : {name: 'µs', f: 1};
}

/* A tick's number: three significant digits, thousands separated (200,000; 2.5; 0.05). */
function fmtTick(v) {
	return isNum(v) ? Number(v.toPrecision(3)).toLocaleString('en-US', {maximumFractionDigits: 6}) : '';
}

/* An axis: linear, or logarithmic when opts.log is not false and the values are positive and span
 * a factor of 8; ticks exactly at the values (the swept ones) with opts.ticksAt. A latency axis
 * (opts.lat: values in µs) says its unit in its title and on every tick. opts.all: the values of
 * every panel of the chart, so that the panels share their scale. */
function axis(title, vals, opts) {
	const all = (opts.all || vals).filter(isNum);
	const pos = all.filter(v => v > 0);
	const log = opts.log !== false && pos.length === all.length && pos.length > 1 &&
		    Math.max(...pos) / Math.min(...pos) >= 8;
	let fmt = opts.fmt || fmtTick;
	if (opts.lat) {
		const u = latUnit(Math.max(0, ...all.map(Math.abs)));
		title = title.replace('(µs)', '(' + u.name + ')');
		fmt = v => fmtTick(v / u.f) + ' ' + u.name;
	}
	const a = {type: log ? 'logarithmic' : 'linear', title: {display: true, text: title}};
	if (!log && opts.zero)
		a.beginAtZero = true;
	if (all.length && !opts.ticksAt) {
		a.suggestedMax = Math.max(...all);
		if (log)
			a.suggestedMin = Math.min(...pos);
	}
	if (opts.ticksAt) {
		const at = unique(all).sort((x, y) => x - y);
		a.afterBuildTicks = function (ax) {
			ax.ticks = at.map(v => ({value: v}));
		};
		a.ticks = {callback: opts.fmt || (v => v)};
	} else if (log) {
		/* labels at 1, 2 and 5 of each decade over up to two decades, else at powers of 10 */
		const at = Math.log10(Math.max(...pos) / Math.min(...pos)) <= 2 ? [1, 2, 5] : [1];
		a.ticks = {autoSkip: false, callback: v => {
			const m = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
			return at.some(k => Math.abs(m - k) < 1e-6) ? fmt(v) : '';
		}};
	} else {
		a.ticks = {callback: v => fmt(v)};
		if (opts.integer)
			a.ticks.precision = 0;
	}
	a.$fmt = fmt;
	return a;
}

/* True when positive values span two decades or more (a disk against an SSD on one axis):
 * a logarithmic axis then shows both. */
function wideRange(vs) {
	if (!vs.length || vs.some(v => !(v > 0)))
		return false;
	return Math.max(...vs) / Math.min(...vs) >= 100;
}

/* The facet keys of series (each with parts: [[key, text], ...]) in the order they first appear. */
function facetKeys(series) {
	return unique([].concat(...series.map(s => s.parts.map(p => p[0]))));
}

function partOf(s, key) {
	const p = s.parts.find(q => q[0] === key);
	return p ? p[1] : '–';
}

/* Splits series into panels of at most maxSeries: by the facet (a key of the series' parts) that
 * needs the fewest panels, a panel cut out of a group still too large counting twice (a part
 * says less than a parameter's value), a part of all series three times; the earlier facet on a
 * tie, a facet rather than none. Each
 * group still too large is split the same way by the other facets, what remains in even parts.
 * Returns [{name, fixed: [facet keys the panel holds constant], series}]. */
function panelsOf(series, keys) {
	if (series.length <= maxSeries)
		return [{name: '', fixed: [], series: series}];
	const cost = n => n <= maxSeries ? 1 : 2 * Math.ceil(n / maxSeries);
	/* no facet: parts only, each counting three times */
	let best = null, bestCost = 3 * Math.ceil(series.length / maxSeries);
	for (const k of keys) {
		if (!series.every(s => s.parts.some(q => q[0] === k)))
			continue; /* a facet some series do not have says nothing of them */
		const groups = new Map();
		for (const s of series) {
			const v = partOf(s, k);
			if (!groups.has(v))
				groups.set(v, []);
			groups.get(v).push(s);
		}
		if (groups.size < 2)
			continue;
		const c = Array.from(groups.values()).reduce((n, g) => n + cost(g.length), 0);
		if (best === null ? c <= bestCost : c < bestCost) {
			best = {key: k, groups: groups};
			bestCost = c;
		}
	}
	const out = [];
	if (best) {
		for (const [v, list] of best.groups)
			for (const sub of panelsOf(list, keys.filter(k => k !== best.key)))
				out.push({name: [v, sub.name].filter(x => x).join(', '),
					  fixed: [best.key, ...sub.fixed], series: sub.series});
		return out;
	}
	const n = Math.ceil(series.length / maxSeries);
	for (let i = 0; i < n; i++)
		out.push({name: 'part ' + (i + 1) + ' of ' + n, fixed: [],
			  series: series.slice(Math.round(i * series.length / n),
					       Math.round((i + 1) * series.length / n))});
	return out;
}

/* A series' name in its panel: its parts the panel does not hold constant. */
function labelIn(panel, s) {
	const free = s.parts.filter(p => !panel.fixed.includes(p[0]) &&
		panel.series.some(o => partOf(o, p[0]) !== p[1]));
	return (free.length ? free : s.parts.filter(p => !panel.fixed.includes(p[0])))
		.map(p => p[1]).join(' ') || 'all';
}

/* Colours for the series of panels: by name across all panels when there are few names (a name
 * keeps its colour from panel to panel), else by place in its panel; never twice in a panel. */
function colourer(panels) {
	const names = unique([].concat(...panels.map(p => p.series.map(s => labelIn(p, s)))));
	const byName = names.length <= palette.length;
	return (panel, s, i) => palette[(byName ? names.indexOf(labelIn(panel, s)) : i) % palette.length];
}

/* The legend's sample of a series: a stroke of its line's colour and dashes, or a square of its
 * bar's colour. */
function swatch(d, bar) {
	const s = el('span', {class: bar ? 'swatch bar' : 'swatch', 'aria-hidden': 'true'});
	const dash = bar ? [] : d.borderDash || [];
	let at = 0;
	const stops = [];
	for (let i = 0; i + 1 < dash.length; i += 2) {
		stops.push(d.borderColor + ' ' + at + 'px ' + (at + dash[i]) + 'px',
			   'transparent ' + (at + dash[i]) + 'px ' + (at + dash[i] + dash[i + 1]) + 'px');
		at += dash[i] + dash[i + 1];
	}
	s.style.background = stops.length ? 'repeating-linear-gradient(to right, ' + stops.join(', ') + ')' :
		bar ? d.backgroundColor : d.borderColor;
	return s;
}

/* One panel: its title above, the plot (a fixed height, report.css) and beside it the legend,
 * whose entries show or hide their series when clicked. */
function makePanel(parent, title, config, withLegend) {
	const canvas = el('canvas', {role: 'img', 'aria-label': title});
	const datasets = config.data.datasets;
	const legend = withLegend ? el('ul', {class: 'legend'}) : null;
	parent.appendChild(el('div', {class: 'chart'}, el('div', {class: 'chart-title'}, title),
			      el('div', {class: 'chart-body'}, el('div', {class: 'plot'}, canvas), legend)));
	let chart = null;
	if (legend)
		datasets.forEach((d, i) => {
			const li = el('li', {tabindex: '0', title: 'click to show or hide'},
				      swatch(d, config.type === 'bar'), el('span', {}, d.label));
			const toggle = () => {
				if (!chart)
					return;
				const on = chart.isDatasetVisible(i);
				chart.setDatasetVisibility(i, !on);
				li.classList.toggle('off', on);
				chart.update();
			};
			li.addEventListener('click', toggle);
			li.addEventListener('keydown', e => {
				if (e.key === 'Enter' || e.key === ' ') {
					e.preventDefault();
					toggle();
				}
			});
			legend.appendChild(li);
		});
	const o = config.options = config.options || {};
	o.animation = false;
	o.responsive = true;
	o.maintainAspectRatio = false;
	o.plugins = o.plugins || {};
	o.plugins.title = {display: false};
	o.plugins.legend = {display: false};
	const yfmt = o.scales && o.scales.y && o.scales.y.$fmt;
	if (yfmt)
		o.plugins.tooltip = {callbacks: {label: ctx => (ctx.dataset.label || '') + ': ' +
						 yfmt(ctx.parsed.y)}};
	expected++;
	body.dataset.chartsExpected = String(expected);
	try {
		chart = new Chart(canvas.getContext('2d'), config);
	} catch (e) {
		fail('chart "' + title + '": ' + (e && e.message ? e.message : e));
	}
}

/* Line charts of series [{parts: [[facet key, text], ...], data: [{x, y}], dash, pointRadius,
 * stepped}]
 * in panels of at most maxSeries series; series with fewer than opts.min (2) points are left out.
 * opts: ticksAt, xfmt, xlog, ylog, xint, xlat, ylat, legend. Returns the panels made. */
function lineCharts(parent, title, xTitle, yTitle, series, opts) {
	opts = opts || {};
	series = series.filter(s => s.data.length >= (opts.min || 2));
	if (!series.length)
		return 0;
	const panels = panelsOf(series, facetKeys(series));
	const colour = colourer(panels);
	const xs = [].concat(...series.map(s => s.data.map(p => p.x)));
	const ys = [].concat(...series.map(s => s.data.map(p => p.y)));
	for (const panel of panels) {
		const datasets = panel.series.map((s, i) => {
			const c = colour(panel, s, i);
			return {label: labelIn(panel, s), data: s.data.slice().sort((a, b) => a.x - b.x),
				borderColor: c, backgroundColor: c, borderDash: s.dash || [],
				pointRadius: s.pointRadius === undefined ? 3 : s.pointRadius, borderWidth: 2,
				tension: 0, stepped: s.stepped || false};
		});
		const pxs = [].concat(...datasets.map(d => d.data.map(p => p.x)));
		const pys = [].concat(...datasets.map(d => d.data.map(p => p.y)));
		makePanel(parent, title + (panel.name ? ': ' + panel.name : ''), {
			type: 'line',
			data: {datasets: datasets},
			options: {scales: {
				x: axis(xTitle, pxs, {all: opts.ticksAt ? null : xs, ticksAt: opts.ticksAt,
						      fmt: opts.xfmt, log: opts.xlog, integer: opts.xint,
						      lat: opts.xlat}),
				y: axis(yTitle, pys, {all: ys, zero: true, log: opts.ylog || wideRange(ys),
						      lat: opts.ylat}),
			}},
		}, datasets.length > 1 || !!opts.legend);
	}
	return panels.length;
}

/* A plugin for one chart: a dashed grey line across the plot at value y (100 % of a reference). */
function refLine(y) {
	return {
		id: 'iolabRefLine',
		afterDatasetsDraw(chart) {
			const s = chart.scales.y, a = chart.chartArea;
			if (!s || !a || y < s.min || y > s.max)
				return;
			const at = s.getPixelForValue(y), ctx = chart.ctx;
			ctx.save();
			ctx.strokeStyle = '#555';
			ctx.setLineDash([4, 4]);
			ctx.beginPath();
			ctx.moveTo(a.left, at);
			ctx.lineTo(a.right, at);
			ctx.stroke();
			ctx.restore();
		},
	};
}

/* Bar charts: categories along x, series [{parts, data: a value (or null) per category}], in
 * panels of at most maxSeries series and maxGroups categories. opts: ymax, ylat, legend, refLine
 * (a value marked by a dashed line: 100 on a % of the reference, 0 on a gain or error).
 * Returns the panels made. */
function barCharts(parent, title, categories, yTitle, series, opts) {
	opts = opts || {};
	series = series.filter(s => s.data.some(isNum));
	if (!series.length || !categories.length)
		return 0;
	const panels = panelsOf(series, facetKeys(series));
	const colour = colourer(panels);
	const ys = [].concat(...series.map(s => s.data.filter(isNum)));
	const chunks = Math.ceil(categories.length / maxGroups);
	const size = Math.ceil(categories.length / chunks);
	let made = 0;
	for (const panel of panels)
		for (let c = 0; c < chunks; c++) {
			const from = c * size, to = Math.min(categories.length, from + size);
			const datasets = panel.series.map((s, i) => {
				const col = colour(panel, s, i);
				return {label: labelIn(panel, s), data: s.data.slice(from, to),
					backgroundColor: col, borderColor: col};
			});
			const y = axis(yTitle, ys, {log: false, zero: true, lat: opts.ylat});
			if (isNum(opts.ymax))
				y.max = opts.ymax;
			const name = [panel.name, chunks > 1 ? (from + 1) + '–' + to + ' of ' +
				      categories.length : ''].filter(x => x).join(', ');
			makePanel(parent, title + (name ? ': ' + name : ''), {
				type: 'bar',
				plugins: isNum(opts.refLine) ? [refLine(opts.refLine)] : [],
				data: {labels: categories.slice(from, to), datasets: datasets},
				options: {scales: {x: {ticks: {autoSkip: false, maxRotation: 30,
						callback: function (v) {
							const l = String(this.getLabelForValue(v));
							return l.length > 22 ? l.slice(0, 21) + '…' : l;
						}}}, y: y}},
			}, datasets.length > 1 || !!opts.legend);
			made++;
		}
	return made;
}

/* ---- sweeps: the runs overlaid on the same axes ---- */

const sweepAxes = [
	{key: 'qd', title: 'queue depth', get: p => params[4].get(p), latency: false},
	{key: 'bs', title: 'block size', get: p => params[1].get(p), fmt: v => fmtSize(v), latency: false},
	{key: 'clients', title: 'clients per worker', get: p => params[5].get(p), latency: true},
	{key: 'target_iops', title: 'offered load (IOPS)', get: p => params[7].get(p), latency: true, nolog: true},
	{key: 'drives', title: 'drives in the volume', get: p => params[10].get(p), latency: true},
];

const metrics = {
	iops: {title: 'IOPS', get: p => p.iops},
	mb: {title: 'MB/s (10^6 B/s)', get: p => p.mb_per_s},
	mean: {title: 'mean latency (µs)', get: p => p.lat_us && p.lat_us.mean, lat: true},
	p99: {title: 'p99 latency (µs)', get: p => p.lat_us && p.lat_us.p99, lat: true},
};

/* The lines of one run along one axis: points grouped by everything but the axis, each group with
 * at least two values on it; a line's parts name what it holds constant. */
function sweepLines(run, ax) {
	const pts = runPoints(run).filter(p => isNum(ax.get(p)));
	const vary = varying(pts);
	const skip = [ax.key];
	if (ax.key === 'clients' || ax.key === 'target_iops')
		skip.push('qd'); /* there it is the clients, or the cap on I/Os in flight */
	const groups = new Map();
	for (const p of pts) {
		const key = JSON.stringify(params.filter(q => !skip.includes(q.key)).map(q => q.get(p)));
		if (!groups.has(key))
			groups.set(key, {parts: pointParts(p, vary, skip, ['pattern', 'bs']), points: []});
		groups.get(key).points.push(p);
	}
	return Array.from(groups.values())
		.filter(g => unique(g.points.map(ax.get)).length > 1);
}

function sweepSection(runs, main) {
	const section = el('section', {}, el('h2', {}, 'Sweeps' + (runs.length > 1 ?
		' (runs overlaid, a dash pattern per run; more than ' + maxSeries +
		' lines are split into panels)' : '')));
	const grid = el('div', {class: 'charts'});
	section.appendChild(grid);
	let made = 0;
	for (const ax of sweepAxes) {
		const lines = [];
		runs.forEach((run, ri) => {
			for (const g of sweepLines(run, ax))
				lines.push({run: run, ri: ri, g: g});
		});
		if (!lines.length)
			continue;
		const names = unique(lines.map(l => l.run.id)).length;
		const wanted = ax.latency ? ['iops', 'mb', 'mean', 'p99'] : ['iops', 'mb'];
		for (const m of wanted) {
			const series = lines.map(l => ({
				parts: (runs.length > 1 ? [['run', runName(l.run)]] : []).concat(l.g.parts),
				dash: dashes[l.ri % dashes.length],
				data: l.g.points.filter(p => isNum(metrics[m].get(p)))
					.map(p => ({x: ax.get(p), y: metrics[m].get(p)})),
			}));
			const title = metrics[m].title.replace(/ \(.*/, '') + ' vs ' + ax.title +
				      (names > 1 ? ' (' + names + ' runs)' : '');
			made += lineCharts(grid, title, ax.title, metrics[m].title, series,
					   {ticksAt: true, xfmt: ax.fmt, xlog: ax.nolog ? false : undefined,
					    ylog: metrics[m].lat ? undefined : false, ylat: metrics[m].lat,
					    legend: true});
		}
	}
	if (made)
		main.appendChild(section);
}

/* ---- per run ---- */

const pcts = ['p50', 'p90', 'p99', 'p99.9'];

function percentileChart(grid, run) {
	const ax = sweepAxes[0];
	const series = [];
	for (const g of sweepLines(run, ax))
		for (const pc of pcts)
			series.push({
				parts: g.parts.concat([['pct', pc]]),
				data: g.points.filter(p => p.lat_us && isNum(p.lat_us[pc]))
					.map(p => ({x: ax.get(p), y: p.lat_us[pc]})),
			});
	lineCharts(grid, runName(run) + ': latency percentiles vs queue depth', 'queue depth',
		   'latency (µs)', series, {ticksAt: true, ylog: undefined, ylat: true, legend: true});
}

const cdfPcts = [['p1', 0.01], ['p5', 0.05], ['p10', 0.10], ['p25', 0.25], ['p50', 0.50],
		 ['p75', 0.75], ['p90', 0.90], ['p95', 0.95], ['p99', 0.99], ['p99.9', 0.999],
		 ['p99.99', 0.9999]];

/* A point's latency CDF: from its histogram buckets (lat_hist, [low_ns, high_ns, count], reads
 * and writes together) when it has them, else through its percentiles. */
function pointCdf(p) {
	const h = p.lat_hist;
	const buckets = h ? [].concat(Array.isArray(h.read) ? h.read : [],
				      Array.isArray(h.write) ? h.write : []) : [];
	const good = buckets.filter(b => Array.isArray(b) && b.length >= 3 && isNum(b[1]) && b[2] > 0);
	if (good.length) {
		good.sort((a, b) => a[1] - b[1]);
		const total = good.reduce((s, b) => s + b[2], 0);
		const data = [{x: Math.max(good[0][0], 1) / 1000, y: 0}];
		let sum = 0;
		for (const b of good) {
			sum += b[2];
			data.push({x: b[1] / 1000, y: sum / total});
		}
		return {hist: true, data: data};
	}
	const l = p.lat_us || {};
	const data = [];
	if (isNum(l.min))
		data.push({x: l.min, y: 0});
	for (const [k, q] of cdfPcts)
		if (isNum(l[k]))
			data.push({x: l[k], y: q});
	if (isNum(l.max))
		data.push({x: l.max, y: 1});
	return {hist: false, data: data.filter(d => d.x > 0)};
}

/* The parts of a point as a series of its run: its pattern and whatever varies in the run. */
function pointSeriesParts(p, vary) {
	const parts = pointParts(p, vary, [], ['pattern']);
	return parts.length ? parts : [['point', 'all']];
}

function cdfChart(grid, run) {
	const pts = runPoints(run);
	const vary = varying(pts);
	let hist = 0;
	const series = pts.map(p => {
		const c = pointCdf(p);
		hist += c.hist ? 1 : 0;
		return {parts: pointSeriesParts(p, vary), data: c.data, pointRadius: c.hist ? 0 : 2,
			stepped: c.hist ? 'after' : false};
	});
	const how = hist === pts.length ? 'from the latency histograms' :
		    hist ? 'from histograms where stored, else percentiles' : 'through the percentiles';
	lineCharts(grid, runName(run) + ': latency CDF per point (' + how + ')', 'latency (µs)',
		   'fraction of I/Os', series, {legend: true, xlog: undefined, xlat: true});
}

function perSecondChart(grid, run) {
	const pts = runPoints(run);
	const vary = varying(pts);
	const series = pts.map(p => ({
		parts: pointSeriesParts(p, vary),
		pointRadius: 1,
		data: (p.per_second && Array.isArray(p.per_second.iops) ? p.per_second.iops : [])
			.map((v, i) => ({x: i + 1, y: v})).filter(d => isNum(d.y)),
	}));
	lineCharts(grid, runName(run) + ': IOPS per second', 'second', 'IOPS', series,
		   {legend: true, xlog: false, xint: true});
}

function componentsChart(grid, run) {
	const pts = runPoints(run).filter(p => Array.isArray(p.components) && p.components.length);
	if (!pts.length)
		return;
	const vary = varying(runPoints(run));
	const names = unique([].concat(...pts.map(p => p.components.map(c => c.name))));
	const series = pts.map(p => {
		const by = new Map(p.components.map(c => [c.name, c]));
		return {
			parts: pointSeriesParts(p, vary),
			data: names.map(n => by.has(n) && isNum(by.get(n).utilization) ?
					     100 * by.get(n).utilization : null),
		};
	});
	barCharts(grid, runName(run) + ': utilization of the simulated parts (%)', names, 'busy %',
		  series, {ymax: 100});
}

function steadyChart(grid, run) {
	const pts = runPoints(run);
	const vary = varying(pts);
	const series = pts.filter(p => p.steady_state && Array.isArray(p.steady_state.window))
		.map(p => {
			const s = p.steady_state;
			return {
				parts: pointSeriesParts(p, vary).concat([['steady', s.rounds + ' rounds, ' +
					(s.reached ? 'steady' : 'NOT steady')]]),
				data: s.window.map((v, i) => ({x: s.rounds - s.window.length + i + 1, y: v})),
			};
		});
	const metric = pts.map(p => p.steady_state && p.steady_state.metric).find(m => m) || '';
	lineCharts(grid, runName(run) + ': steady-state window (' + metric + ')', 'round',
		   metric === 'lat' ? 'latency (µs)' : metric === 'mb' ? 'MB/s' : 'IOPS', series,
		   {legend: true, xlog: false, xint: true, ylat: metric === 'lat'});
}

/* A table in a box that scrolls sideways when the table is wider than the page. */
function scroller(table) {
	return el('div', {class: 'table-wrap'}, table);
}

/* The unit of a column of latencies (µs): the one its largest value asks for. */
function columnUnit(values) {
	return latUnit(Math.max(0, ...values.filter(isNum).map(Math.abs)));
}

/* The points' figures; a column of write amplification when a point has one (simulated SSDs).
 * Each latency column is in the unit its largest value asks for, its header says which. */
function pointsTable(run) {
	const pts = runPoints(run);
	const vary = varying(pts);
	const wa = pts.some(p => isNum(p.write_amplification));
	const lat = ['mean', 'p50', 'p99', 'p99.9'];
	const units = lat.map(k => columnUnit(pts.map(p => p.lat_us && p.lat_us[k])));
	const t = el('table', {}, el('tr', {}, ...['#', 'point', 'IOPS', 'MB/s',
		...lat.map((k, i) => k + ' ' + units[i].name), ...(wa ? ['WA'] : []), 'bottleneck']
		.map(h => el('th', {}, h))));
	pts.forEach((p, i) => {
		const l = p.lat_us || {};
		t.appendChild(el('tr', {}, el('td', {class: 'num'}, i + 1), el('td', {}, pointName(p, vary)),
			...[p.iops, p.mb_per_s].map(v => el('td', {class: 'num'}, fmtNum(v))),
			...lat.map((k, j) => el('td', {class: 'num'},
						isNum(l[k]) ? fmtNum(l[k] / units[j].f) : '–')),
			...(wa ? [el('td', {class: 'num'}, isNum(p.write_amplification) ?
					p.write_amplification.toFixed(2) : '–')] : []),
			el('td', {}, p.bottleneck || '–')));
	});
	return scroller(t);
}

/* Warnings of the same kind (the same text but for its numbers) go together: one line saying the
 * kind, with how many points and the range of each number that differs between them, which opens
 * onto the list of the points. */
function warningGroups(items) {
	const num = /\d[\d,]*(?:\.\d+)?/g;
	const groups = new Map();
	for (const it of items) {
		const kind = it.text.replace(num, '#');
		if (!groups.has(kind))
			groups.set(kind, []);
		groups.get(kind).push(it);
	}
	return Array.from(groups.values()).map(list => {
		if (list.length === 1)
			return el('li', {}, list[0].where + list[0].text);
		const nums = list.map(it => (it.text.match(num) || []).map(s => Number(s.replace(/,/g, ''))));
		let k = 0;
		const ranges = [];
		const summary = list[0].text.replace(num, (s, at) => {
			const vals = nums.map(n => n[k]);
			k++;
			if (unique(vals).length === 1)
				return s;
			const word = (list[0].text.slice(at + s.length).match(/^\s*([^\s:;,.()]+)/) || ['', ''])[1];
			ranges.push(fmtNum(Math.min(...vals)) + '–' + fmtNum(Math.max(...vals)) +
				    (word ? ' ' + word : ''));
			return 'N';
		});
		const ps = list.filter(it => it.point).length;
		const count = (ps ? ps + ' points' : list.length + ' times') +
			      (ranges.length ? ': ' + ranges.join(', ') : '');
		return el('li', {}, el('details', {}, el('summary', {}, summary + ' (' + count + ')'),
			el('ul', {}, ...list.map(it => el('li', {}, it.where + it.text)))));
	});
}

function warningsList(run) {
	const pts = runPoints(run);
	const vary = varying(pts);
	const items = [];
	if (run.doc.interrupted)
		items.push({where: '', text: 'the run was interrupted: its last point is partial'});
	pts.forEach((p, i) => {
		for (const w of Array.isArray(p.warnings) ? p.warnings : [])
			items.push({point: i + 1, where: 'point ' + (i + 1) + ' (' + pointName(p, vary) + '): ',
				    text: String(w)});
	});
	if (!items.length)
		return null;
	return el('div', {}, el('h3', {}, 'Warnings (' + items.length + ')'),
		  el('ul', {class: 'warnings'}, ...warningGroups(items)));
}

function runSection(run, main) {
	const pts = runPoints(run);
	const section = el('section', {id: 'run-' + run.id},
		el('h2', {}, runName(run) + ' (run ' + run.id + ', ' + (run.doc.command || '?') + ', ' +
			     runTarget(run.doc) + ')'));
	section.appendChild(pointsTable(run));
	const grid = el('div', {class: 'charts'});
	section.appendChild(grid);
	if (pts.length) {
		percentileChart(grid, run);
		cdfChart(grid, run);
		perSecondChart(grid, run);
		componentsChart(grid, run);
		steadyChart(grid, run);
	}
	const w = warningsList(run);
	if (w)
		section.appendChild(w);
	main.appendChild(section);
}

/* ---- the header ---- */

function devicesTable(devs) {
	return el('table', {}, el('tr', {}, ...['target', 'model', 'firmware', 'size', 'rotational',
		'scheduler'].map(h => el('th', {}, h))),
		...devs.map(d => el('tr', {}, el('td', {}, d.target || '–'), el('td', {}, d.model || '–'),
			el('td', {}, d.firmware || '–'), el('td', {class: 'num'}, fmtBytes(d.size_bytes)),
			el('td', {}, d.rotational === true ? 'yes' : d.rotational === false ? 'no' : '–'),
			el('td', {}, d.scheduler || '–'))));
}

function header(data, main) {
	main.appendChild(el('h1', {}, data.title || 'iolab report'));
	main.appendChild(el('div', {class: 'meta'}, 'iolab ' + (data.iolab || '') + ', generated ' +
			    (data.generated || '') + ' (UTC); ' + data.runs.length + ' run(s)'));
	const t = el('table', {}, el('tr', {}, ...['id', 'label', 'kind', 'target / model', 'command',
		'saved (UTC)', 'points', 'price', 'capacity'].map(h => el('th', {}, h))));
	for (const run of data.runs) {
		const d = run.doc;
		t.appendChild(el('tr', {}, el('td', {class: 'num'}, run.id), el('td', {}, run.label || '–'),
			el('td', {}, d.command || '–'), el('td', {}, runTarget(d)),
			el('td', {}, run.command_line ? el('code', {}, run.command_line) : '–'),
			el('td', {}, run.time || '–'), el('td', {class: 'num'}, runPoints(run).length +
							  (d.interrupted ? ' (interrupted)' : '')),
			el('td', {class: 'num'}, isNum(d.price_usd) ? '$' + fmtNum(d.price_usd) : '–'),
			el('td', {class: 'num'}, fmtBytes(d.capacity_bytes))));
	}
	main.appendChild(scroller(t));
	for (const run of data.runs)
		if (Array.isArray(run.doc.devices) && run.doc.devices.length) {
			main.appendChild(el('h3', {}, 'Devices of ' + runName(run)));
			main.appendChild(scroller(devicesTable(run.doc.devices)));
		}
}

/* ---- comparison tables (include/iolab/compare.h's object) ---- */

const cmpMetricNames = {iops: 'IOPS', mb_per_s: 'MB/s', lat_mean_us: 'mean latency'};

function fmtPct(v) {
	return isNum(v) ? v.toFixed(1) + '%' : '–';
}

function cmpRunName(r, i) {
	if (!r)
		return 'run #' + (i + 1);
	return r.name || r.label || (isNum(r.id) ? 'run ' + r.id : 'run #' + (i + 1));
}

/* A key's field as the page says it (params), else "field value". */
function sayKeyField(f, v) {
	const q = params.find(q => q.key === f);
	return q ? q.say(v) : f + ' ' + (typeof v === 'object' ? JSON.stringify(v) : v);
}

/* The comparison charted, per metric: bars of each run's % of the reference per point (ref mode),
 * the gain in percentage points (gain) or the error % (error). When every point's key has a queue
 * depth the bars are grouped by it (the queue depths along x, a series per run and per the rest of
 * the key), else a group per point. */
function comparisonCharts(grid, c, n, runs, ms, mode, ref) {
	const pts = (Array.isArray(c.points) ? c.points : []).filter(p => p && Array.isArray(p.values));
	if (!pts.length)
		return;
	const byQd = pts.every(p => p.key && isNum(p.key.qd));
	const fields = unique([].concat(...pts.map(p => Object.keys(p.key || {}))))
		.filter(f => f !== 'qd' && unique(pts.map(p => JSON.stringify((p.key || {})[f]))).length > 1);
	const restOf = p => byQd ? fields.filter(f => (p.key || {})[f] !== null &&
		(p.key || {})[f] !== undefined).map(f => [f, sayKeyField(f, p.key[f])]) : [];
	const categories = byQd ? unique(pts.map(p => p.key.qd)).sort((a, b) => a - b) : pts.map((p, i) => i);
	const labels = byQd ? categories.map(q => 'qd ' + q) :
		pts.map(p => p.name || JSON.stringify(p.key || {}));
	const groups = new Map();
	for (const p of pts) {
		const parts = restOf(p), key = JSON.stringify(parts);
		if (!groups.has(key))
			groups.set(key, {parts: parts, at: new Map()});
		groups.get(key).at.set(byQd ? p.key.qd : pts.indexOf(p), p);
	}
	const refName = cmpRunName(runs[ref], ref);
	const gr = Array.isArray(c.gain_runs) ? c.gain_runs : [];
	const gainOf = gr.length === 2 && runs[gr[0]] && runs[gr[1]] ?
		' of ' + cmpRunName(runs[gr[1]], gr[1]) + ' over ' + cmpRunName(runs[gr[0]], gr[0]) : '';
	const chart = (m, kind) => {
		const series = [];
		for (const g of groups.values()) {
			const values = f => categories.map(q => g.at.has(q) ? f(g.at.get(q)) : null);
			if (kind === 'pct')
				runs.forEach((r, i) => {
					if (i !== ref)
						series.push({parts: [['run', cmpRunName(r, i)]].concat(g.parts),
							     data: values(p => p.values[i] && p.values[i].pct ?
									  p.values[i].pct[m] : null)});
				});
			else
				series.push({parts: g.parts.length ? g.parts : [['what', kind]],
					     data: values(p => p[kind] ? p[kind][m] : null)});
		}
		const what = cmpMetricNames[m] || m;
		const says = {pct: [' as % of ' + refName, '% of ' + refName],
			      gain: [' gain' + gainOf + ' (percentage points of ' + refName + ')', 'gain (pp)'],
			      error_pct: [' error % (predicted against ' + refName + ')', 'error %']}[kind];
		barCharts(grid, 'Comparison ' + n + ': ' + what + says[0], labels, says[1], series,
			  {legend: true, refLine: kind === 'pct' ? 100 : 0});
	};
	for (const m of ms) {
		if (mode !== 'error')
			chart(m, 'pct');
		if (mode !== 'ref')
			chart(m, mode === 'gain' ? 'gain' : 'error_pct');
	}
}

function comparisonTable(c, n) {
	const out = el('div', {class: 'comparison'});
	const runs = Array.isArray(c.runs) ? c.runs : [];
	const ms = Array.isArray(c.metrics) && c.metrics.length ? c.metrics : ['iops', 'mb_per_s', 'lat_mean_us'];
	const mode = c.mode || 'ref';
	const ref = isNum(c.reference) ? c.reference : 0;
	const modeSays = {ref: 'each value as % of the reference run', gain: 'gain in percentage points',
			  error: 'predicted against measured'};
	out.appendChild(el('h3', {}, 'Comparison ' + n + ': ' + mode + ' (' + (modeSays[mode] || mode) +
				 '; ' + (mode === 'error' ? 'measured' : 'reference') + ': ' +
				 cmpRunName(runs[ref], ref) + (Array.isArray(c.by) && c.by.length ?
				 '; points matched by ' + c.by.join(', ') : '') + ')'));
	/* the runs, with their prices where known */
	const rt = el('table', {}, el('tr', {}, ...['run', 'kind', 'target', 'price', 'capacity', '$/GB',
		'$/IOPS', '$/(MB/s)'].map(h => el('th', {}, h))));
	runs.forEach((r, i) => rt.appendChild(el('tr', {}, el('td', {}, cmpRunName(r, i) + (i === ref ? ' *' : '')),
		el('td', {}, r.kind || '–'), el('td', {}, r.target || '–'),
		el('td', {class: 'num'}, isNum(r.price_usd) ? '$' + fmtNum(r.price_usd) : '–'),
		el('td', {class: 'num'}, fmtBytes(r.capacity_bytes)),
		...['usd_per_gb', 'usd_per_iops', 'usd_per_mb_s'].map(k =>
			el('td', {class: 'num'}, isNum(r[k]) ? '$' + r[k].toPrecision(3) : '–')))));
	out.appendChild(scroller(rt));
	const grid = el('div', {class: 'charts'});
	out.appendChild(grid);
	comparisonCharts(grid, c, n, runs, ms, mode, ref);
	/* the points: per run the value and its pct (and, side by side, not compared, the write
	 * amplification of simulated SSDs and the point's prices when it has them), then gain or
	 * error */
	const pointsOf = Array.isArray(c.points) ? c.points : [];
	const sides = [
		{key: 'write_amplification', head: 'WA', fmt: v => v.toFixed(2)},
		{key: 'usd_per_iops', head: '$/IOPS', fmt: v => '$' + v.toPrecision(3)},
		{key: 'usd_per_mb_s', head: '$/(MB/s)', fmt: v => '$' + v.toPrecision(3)},
	].filter(sd => pointsOf.some(p => Array.isArray(p.values) &&
					 p.values.some(v => v && isNum(v[sd.key]))));
	const units = {};
	for (const m of ms)
		if (m === 'lat_mean_us')
			units[m] = columnUnit([].concat(...pointsOf.map(p => Array.isArray(p.values) ?
				p.values.map(v => v && v[m]) : [])));
	const cmpValue = (v, m) => !v ? '–' : units[m] ? (isNum(v[m]) ? fmtNum(v[m] / units[m].f) : '–') :
		fmtNum(v[m]);
	const metricHead = m => (cmpMetricNames[m] || m) + (units[m] ? ' ' + units[m].name : '');
	const head1 = el('tr', {}, el('th', {rowspan: 2}, 'point'));
	const head2 = el('tr', {});
	runs.forEach((r, i) => {
		head1.appendChild(el('th', {colspan: ms.length * 2 + sides.length}, cmpRunName(r, i)));
		for (const m of ms) {
			head2.appendChild(el('th', {}, metricHead(m)));
			head2.appendChild(el('th', {}, '%'));
		}
		for (const sd of sides)
			head2.appendChild(el('th', {}, sd.head));
	});
	const extra = mode === 'gain' ? 'gain' : mode === 'error' ? 'error_pct' : null;
	if (extra) {
		head1.appendChild(el('th', {colspan: ms.length}, extra === 'gain' ? 'gain (pp)' : 'error %'));
		for (const m of ms)
			head2.appendChild(el('th', {}, cmpMetricNames[m] || m));
	}
	const t = el('table', {class: 'cmp-points'}, head1, head2);
	for (const p of pointsOf) {
		const tr = el('tr', {}, el('td', {}, p.name || JSON.stringify(p.key || {})));
		runs.forEach((r, i) => {
			const v = Array.isArray(p.values) ? p.values[i] : null;
			for (const m of ms) {
				tr.appendChild(el('td', {class: 'num'}, cmpValue(v, m)));
				tr.appendChild(el('td', {class: 'num'}, v && v.pct ? fmtPct(v.pct[m]) : '–'));
			}
			for (const sd of sides)
				tr.appendChild(el('td', {class: 'num'}, v && isNum(v[sd.key]) ?
						  sd.fmt(v[sd.key]) : '–'));
		});
		if (extra)
			for (const m of ms)
				tr.appendChild(el('td', {class: 'num'}, p[extra] ? fmtPct(p[extra][m]) : '–'));
		t.appendChild(tr);
	}
	/* overall */
	const o = c.overall || {};
	if (mode !== 'error' && ms.some(m => Array.isArray(o[m]))) {
		const tr = el('tr', {class: 'overall'}, el('th', {}, 'overall (geometric mean of %)'));
		runs.forEach((r, i) => {
			for (const m of ms) {
				tr.appendChild(el('td', {}, ''));
				tr.appendChild(el('td', {class: 'num'}, Array.isArray(o[m]) ? fmtPct(o[m][i]) : '–'));
			}
			for (let k = 0; k < sides.length; k++)
				tr.appendChild(el('td', {}, ''));
		});
		if (extra)
			for (const m of ms)
				tr.appendChild(el('td', {}, ''));
		t.appendChild(tr);
	}
	out.appendChild(scroller(t));
	if (mode === 'error' && ms.some(m => o[m])) {
		out.appendChild(scroller(el('table', {class: 'cmp-overall'}, el('tr', {}, ...['overall error',
			'mean |error|', 'max |error|', 'rms'].map(h => el('th', {}, h))),
			...ms.filter(m => o[m]).map(m => el('tr', {}, el('td', {}, cmpMetricNames[m] || m),
				...['mean_abs_pct', 'max_abs_pct', 'rms_pct'].map(k =>
					el('td', {class: 'num'}, fmtPct(o[m][k]))))))));
	}
	const un = Array.isArray(c.unmatched) ? c.unmatched : [];
	if (un.length) {
		out.appendChild(el('h3', {}, 'Points without a partner in every run (' + un.length + ')'));
		out.appendChild(el('ul', {class: 'unmatched'}, ...un.map(u =>
			el('li', {}, cmpRunName(runs[u.run], u.run) + ': ' + (u.name || JSON.stringify(u.key || {}))))));
	}
	return out;
}

function comparisons(data, main) {
	const c = data.comparison;
	if (c === undefined || c === null)
		return;
	const list = Array.isArray(c) ? c : [c];
	const section = el('section', {id: 'comparisons'}, el('h2', {}, 'Comparisons'));
	list.forEach((obj, i) => {
		try {
			section.appendChild(comparisonTable(obj || {}, i + 1));
		} catch (e) {
			fail('comparison ' + (i + 1) + ': ' + (e && e.message ? e.message : e));
		}
	});
	main.appendChild(section);
}

/* ---- the page ---- */

function build() {
	const src = document.getElementById('iolab-data');
	if (!src)
		throw new Error('the page holds no data (<script id="iolab-data">)');
	const data = JSON.parse(src.textContent);
	if (!Array.isArray(data.runs))
		throw new Error('the data has no "runs" array');
	data.runs = data.runs.filter(r => r && r.doc && typeof r.doc === 'object');
	addSettingParams(data.runs);
	const main = document.getElementById('report');
	header(data, main);
	comparisons(data, main);
	sweepSection(data.runs, main);
	for (const run of data.runs) {
		try {
			runSection(run, main);
		} catch (e) {
			fail(runName(run) + ': ' + (e && e.message ? e.message : e));
		}
	}
}

window.addEventListener('load', function () {
	try {
		if (typeof Chart === 'undefined')
			throw new Error('Chart.js did not load');
		setupCharts();
		build();
		/* wider than the window when something runs off the page (tables scroll in their box) */
		body.dataset.pageWidth = String(document.documentElement.scrollWidth);
	} catch (e) {
		fail(e && e.message ? e.message : e);
	}
	body.dataset.reportDone = '1';
});
})();
