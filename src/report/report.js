/* report.js: builds the iolab report page (docs/report.md) from the JSON that `iolab report`
 * embeds in <script type="application/json" id="iolab-data">, drawing the charts with Chart.js
 * (inlined after this script; it is used once the page has loaded). Only charts with data are
 * made. For tests and readers, document.body.dataset records:
 *   chartsExpected  how many charts the page created
 *   chartsRendered  how many Chart.js drew onto a canvas of non-zero size (afterRender hook)
 *   errors          every error (window.onerror, rejected promises, caught exceptions), also
 *                   shown in a red box at the top of the page ("" when none)
 *   reportDone      "1" once the page was built */
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

const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2',
		 '#17becf', '#7f7f7f', '#bcbd22'];
const dashes = [[], [6, 4], [2, 3], [10, 3, 2, 3]];

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

/* "file-server bs 4k qd 16": pattern, size and load always, the other parameters that vary. */
function pointName(p, vary) {
	const words = [];
	for (const q of params) {
		const v = q.get(p);
		const always = q.key === 'pattern' || q.key === 'bs' || q.key === 'qd' ||
			       q.key === 'clients' || q.key === 'target_iops';
		if (v !== null && v !== undefined && (always || vary.includes(q.key)))
			words.push(q.say(v));
	}
	return words.join(' ');
}

/* The same, without the parameters in skip: a line's name when skip are on the x axis. */
function seriesName(p, vary, skip) {
	const words = [];
	for (const q of params) {
		const v = q.get(p);
		if (skip.includes(q.key) || v === null || v === undefined)
			continue;
		if (q.key === 'pattern' || q.key === 'bs' || vary.includes(q.key))
			words.push(q.say(v));
	}
	return words.join(' ');
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

/* ---- charts ---- */

/* Called once Chart.js (inlined after this script) has loaded: counts the charts it draws. */
function setupCharts() {
	Chart.defaults.animation = false;
	Chart.register({
		id: 'iolabCount',
		afterRender(chart) {
			if (chart.$iolabCounted || !(chart.width > 0 && chart.height > 0))
				return;
			chart.$iolabCounted = true;
			rendered++;
			body.dataset.chartsRendered = String(rendered);
		},
	});
}

/* An axis: linear, or logarithmic when the values are positive and span a factor of 8; ticks
 * exactly at values (the swept ones) when given. */
function axis(title, vals, opts) {
	const pos = vals.filter(isNum).filter(v => v > 0);
	const log = opts.log !== false && pos.length === vals.length && pos.length > 1 &&
		    Math.max(...pos) / Math.min(...pos) >= 8;
	const a = {type: log ? 'logarithmic' : 'linear', title: {display: true, text: title}};
	if (!log && opts.zero)
		a.beginAtZero = true;
	if (opts.ticksAt) {
		const at = unique(vals).sort((x, y) => x - y);
		a.afterBuildTicks = function (ax) {
			ax.ticks = at.map(v => ({value: v}));
		};
		a.ticks = {callback: opts.fmt || (v => v)};
	} else if (opts.integer) {
		a.ticks = {precision: 0};
	} else if (log) {
		a.ticks = {callback: v => {
			const l = Math.log10(v);
			return Math.abs(l - Math.round(l)) < 1e-9 ? fmtNum(v) : '';
		}};
	}
	return a;
}

/* True when positive values span two decades or more (a disk against an SSD on one axis):
 * a logarithmic axis then shows both. */
function wideRange(vs) {
	if (!vs.length || vs.some(v => !(v > 0)))
		return false;
	return Math.max(...vs) / Math.min(...vs) >= 100;
}

/* Makes a chart in parent if any dataset has at least min points; returns whether it did. */
function lineChart(parent, title, xTitle, yTitle, datasets, opts) {
	opts = opts || {};
	const min = opts.min || 2;
	datasets = datasets.filter(d => d.data.length >= min);
	if (!datasets.length)
		return false;
	datasets.forEach((d, i) => {
		d.data.sort((a, b) => a.x - b.x);
		d.borderColor = d.backgroundColor = d.color || palette[i % palette.length];
		d.borderDash = d.dash || [];
		d.pointRadius = d.pointRadius === undefined ? 3 : d.pointRadius;
		d.borderWidth = 2;
		d.tension = 0;
		delete d.color;
		delete d.dash;
	});
	const xs = [].concat(...datasets.map(d => d.data.map(p => p.x)));
	const ys = [].concat(...datasets.map(d => d.data.map(p => p.y)));
	return makeChart(parent, title, {
		type: 'line',
		data: {datasets: datasets},
		options: {
			scales: {
				x: axis(xTitle, xs, {ticksAt: opts.ticksAt, fmt: opts.xfmt, log: opts.xlog,
						     integer: opts.xint}),
				y: axis(yTitle, ys, {zero: true, log: opts.ylog || wideRange(ys)}),
			},
			plugins: {legend: {display: datasets.length > 1 || !!opts.legend}},
		},
	});
}

function makeChart(parent, title, config) {
	const canvas = el('canvas', {role: 'img', 'aria-label': title});
	parent.appendChild(el('div', {class: 'chart'}, canvas));
	config.options = config.options || {};
	config.options.animation = false;
	config.options.responsive = true;
	config.options.maintainAspectRatio = false;
	config.options.plugins = config.options.plugins || {};
	config.options.plugins.title = {display: true, text: title};
	expected++;
	body.dataset.chartsExpected = String(expected);
	try {
		new Chart(canvas.getContext('2d'), config);
	} catch (e) {
		fail('chart "' + title + '": ' + (e && e.message ? e.message : e));
	}
	return true;
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
	mean: {title: 'mean latency (µs)', get: p => p.lat_us && p.lat_us.mean, log: true},
	p99: {title: 'p99 latency (µs)', get: p => p.lat_us && p.lat_us.p99, log: true},
};

/* The lines of one run along one axis: points grouped by everything but the axis, each group with
 * at least two values on it. */
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
			groups.set(key, {name: seriesName(p, vary, skip), points: []});
		groups.get(key).points.push(p);
	}
	return Array.from(groups.values())
		.filter(g => unique(g.points.map(ax.get)).length > 1);
}

function sweepSection(runs, main) {
	const section = el('section', {}, el('h2', {}, 'Sweeps' + (runs.length > 1 ?
		' (runs overlaid: a colour per line, a dash pattern per run)' : '')));
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
			const datasets = lines.map(l => ({
				label: (runs.length > 1 ? runName(l.run) + ': ' : '') + (l.g.name || 'all'),
				dash: dashes[l.ri % dashes.length],
				data: l.g.points.filter(p => isNum(metrics[m].get(p)))
					.map(p => ({x: ax.get(p), y: metrics[m].get(p)})),
			}));
			const title = metrics[m].title.replace(/ \(.*/, '') + ' vs ' + ax.title +
				      (names > 1 ? ' (' + names + ' runs)' : '');
			if (lineChart(grid, title, ax.title, metrics[m].title, datasets,
				      {ticksAt: true, xfmt: ax.fmt, xlog: ax.nolog ? false : undefined,
				       ylog: metrics[m].log ? undefined : false, legend: true}))
				made++;
		}
	}
	if (made)
		main.appendChild(section);
}

/* ---- per run ---- */

const pcts = ['p50', 'p90', 'p99', 'p99.9'];

function percentileChart(grid, run) {
	const ax = sweepAxes[0];
	const datasets = [];
	const lines = sweepLines(run, ax);
	lines.forEach((g, gi) => {
		pcts.forEach((pc, i) => {
			datasets.push({
				label: (lines.length > 1 ? g.name + ' ' : '') + pc,
				color: palette[i % palette.length],
				dash: dashes[gi % dashes.length],
				data: g.points.filter(p => p.lat_us && isNum(p.lat_us[pc]))
					.map(p => ({x: ax.get(p), y: p.lat_us[pc]})),
			});
		});
	});
	lineChart(grid, runName(run) + ': latency percentiles vs queue depth', 'queue depth',
		  'latency (µs)', datasets, {ticksAt: true, ylog: undefined, legend: true});
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

function cdfChart(grid, run) {
	const pts = runPoints(run);
	const vary = varying(pts);
	let hist = 0;
	const datasets = pts.map(p => {
		const c = pointCdf(p);
		hist += c.hist ? 1 : 0;
		return {label: pointName(p, vary), data: c.data, pointRadius: c.hist ? 0 : 2,
			stepped: c.hist ? 'after' : false};
	});
	const how = hist === pts.length ? 'from the latency histograms' :
		    hist ? 'from histograms where stored, else percentiles' : 'through the percentiles';
	lineChart(grid, runName(run) + ': latency CDF per point (' + how + ')', 'latency (µs)',
		  'fraction of I/Os', datasets, {legend: true, xlog: undefined});
}

function perSecondChart(grid, run) {
	const pts = runPoints(run);
	const vary = varying(pts);
	const datasets = pts.map(p => ({
		label: pointName(p, vary),
		pointRadius: 1,
		data: (p.per_second && Array.isArray(p.per_second.iops) ? p.per_second.iops : [])
			.map((v, i) => ({x: i + 1, y: v})).filter(d => isNum(d.y)),
	}));
	lineChart(grid, runName(run) + ': IOPS per second', 'second', 'IOPS', datasets,
		  {legend: true, xlog: false, xint: true});
}

function componentsChart(grid, run) {
	const pts = runPoints(run).filter(p => Array.isArray(p.components) && p.components.length);
	if (!pts.length)
		return;
	const vary = varying(runPoints(run));
	const names = unique([].concat(...pts.map(p => p.components.map(c => c.name))));
	const datasets = pts.map((p, i) => {
		const by = new Map(p.components.map(c => [c.name, c]));
		return {
			label: pointName(p, vary),
			backgroundColor: palette[i % palette.length],
			data: names.map(n => by.has(n) && isNum(by.get(n).utilization) ?
					     100 * by.get(n).utilization : null),
		};
	});
	makeChart(grid, runName(run) + ': utilization of the simulated parts (%)', {
		type: 'bar',
		data: {labels: names, datasets: datasets},
		options: {
			scales: {y: {beginAtZero: true, max: 100, title: {display: true, text: 'busy %'}}},
			plugins: {legend: {display: datasets.length > 1}},
		},
	});
}

function steadyChart(grid, run) {
	const pts = runPoints(run);
	const vary = varying(pts);
	const datasets = pts.filter(p => p.steady_state && Array.isArray(p.steady_state.window))
		.map(p => {
			const s = p.steady_state;
			return {
				label: pointName(p, vary) + ': ' + s.rounds + ' rounds, ' +
				       (s.reached ? 'steady' : 'NOT steady'),
				data: s.window.map((v, i) => ({x: s.rounds - s.window.length + i + 1, y: v})),
			};
		});
	const metric = pts.map(p => p.steady_state && p.steady_state.metric).find(m => m) || '';
	lineChart(grid, runName(run) + ': steady-state window (' + metric + ')', 'round',
		  metric === 'lat' ? 'latency (µs)' : metric === 'mb' ? 'MB/s' : 'IOPS', datasets,
		  {legend: true, xlog: false, xint: true});
}

/* The points' figures; a column of write amplification when a point has one (simulated SSDs). */
function pointsTable(run) {
	const pts = runPoints(run);
	const vary = varying(pts);
	const wa = pts.some(p => isNum(p.write_amplification));
	const t = el('table', {}, el('tr', {}, ...['#', 'point', 'IOPS', 'MB/s', 'mean µs', 'p50 µs',
		'p99 µs', 'p99.9 µs', ...(wa ? ['WA'] : []), 'bottleneck'].map(h => el('th', {}, h))));
	pts.forEach((p, i) => {
		const l = p.lat_us || {};
		t.appendChild(el('tr', {}, el('td', {class: 'num'}, i + 1), el('td', {}, pointName(p, vary)),
			...[p.iops, p.mb_per_s, l.mean, l.p50, l.p99, l['p99.9']]
				.map(v => el('td', {class: 'num'}, fmtNum(v))),
			...(wa ? [el('td', {class: 'num'}, isNum(p.write_amplification) ?
					p.write_amplification.toFixed(2) : '–')] : []),
			el('td', {}, p.bottleneck || '–')));
	});
	return t;
}

function warningsList(run) {
	const pts = runPoints(run);
	const vary = varying(pts);
	const items = [];
	if (run.doc.interrupted)
		items.push('the run was interrupted: its last point is partial');
	pts.forEach((p, i) => {
		for (const w of Array.isArray(p.warnings) ? p.warnings : [])
			items.push('point ' + (i + 1) + ' (' + pointName(p, vary) + '): ' + w);
	});
	if (!items.length)
		return null;
	return el('div', {}, el('h3', {}, 'Warnings (' + items.length + ')'),
		  el('ul', {class: 'warnings'}, ...items.map(w => el('li', {}, w))));
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
	main.appendChild(t);
	for (const run of data.runs)
		if (Array.isArray(run.doc.devices) && run.doc.devices.length) {
			main.appendChild(el('h3', {}, 'Devices of ' + runName(run)));
			main.appendChild(devicesTable(run.doc.devices));
		}
}

/* ---- comparison tables (include/iolab/compare.h's object) ---- */

const cmpMetricNames = {iops: 'IOPS', mb_per_s: 'MB/s', lat_mean_us: 'mean µs'};

function fmtPct(v) {
	return isNum(v) ? v.toFixed(1) + '%' : '–';
}

function cmpRunName(r, i) {
	if (!r)
		return 'run #' + (i + 1);
	return r.name || r.label || (isNum(r.id) ? 'run ' + r.id : 'run #' + (i + 1));
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
				 cmpRunName(runs[ref], ref) + ')'));
	/* the runs, with their prices where known */
	const rt = el('table', {}, el('tr', {}, ...['run', 'kind', 'target', 'price', 'capacity', '$/GB',
		'$/IOPS', '$/(MB/s)'].map(h => el('th', {}, h))));
	runs.forEach((r, i) => rt.appendChild(el('tr', {}, el('td', {}, cmpRunName(r, i) + (i === ref ? ' *' : '')),
		el('td', {}, r.kind || '–'), el('td', {}, r.target || '–'),
		el('td', {class: 'num'}, isNum(r.price_usd) ? '$' + fmtNum(r.price_usd) : '–'),
		el('td', {class: 'num'}, fmtBytes(r.capacity_bytes)),
		...['usd_per_gb', 'usd_per_iops', 'usd_per_mb_s'].map(k =>
			el('td', {class: 'num'}, isNum(r[k]) ? '$' + r[k].toPrecision(3) : '–')))));
	out.appendChild(rt);
	/* the points: per run the value and its pct (and the write amplification of simulated
	 * SSDs, side by side, not compared), then gain or error */
	const pointsOf = Array.isArray(c.points) ? c.points : [];
	const wa = pointsOf.some(p => Array.isArray(p.values) &&
				 p.values.some(v => v && isNum(v.write_amplification)));
	const head1 = el('tr', {}, el('th', {rowspan: 2}, 'point'));
	const head2 = el('tr', {});
	runs.forEach((r, i) => {
		head1.appendChild(el('th', {colspan: ms.length * 2 + (wa ? 1 : 0)}, cmpRunName(r, i)));
		for (const m of ms) {
			head2.appendChild(el('th', {}, cmpMetricNames[m] || m));
			head2.appendChild(el('th', {}, '%'));
		}
		if (wa)
			head2.appendChild(el('th', {}, 'WA'));
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
				tr.appendChild(el('td', {class: 'num'}, v ? fmtNum(v[m]) : '–'));
				tr.appendChild(el('td', {class: 'num'}, v && v.pct ? fmtPct(v.pct[m]) : '–'));
			}
			if (wa)
				tr.appendChild(el('td', {class: 'num'}, v && isNum(v.write_amplification) ?
						  v.write_amplification.toFixed(2) : '–'));
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
			if (wa)
				tr.appendChild(el('td', {}, ''));
		});
		if (extra)
			for (const m of ms)
				tr.appendChild(el('td', {}, ''));
		t.appendChild(tr);
	}
	out.appendChild(t);
	if (mode === 'error' && ms.some(m => o[m])) {
		out.appendChild(el('table', {class: 'cmp-overall'}, el('tr', {}, ...['overall error',
			'mean |error|', 'max |error|', 'rms'].map(h => el('th', {}, h))),
			...ms.filter(m => o[m]).map(m => el('tr', {}, el('td', {}, cmpMetricNames[m] || m),
				...['mean_abs_pct', 'max_abs_pct', 'rms_pct'].map(k =>
					el('td', {class: 'num'}, fmtPct(o[m][k])))))));
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
	} catch (e) {
		fail(e && e.message ? e.message : e);
	}
	body.dataset.reportDone = '1';
});
})();
