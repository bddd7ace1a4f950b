// SPDX-License-Identifier: GPL-2.0
// ftsw lab view: the page (Documentation/lab.md, "Watching the fabric").
// It asks the server that serves it, and nothing else: /api/topology once,
// then the push stream /api/stream (a whole snapshot, then a delta per
// sample), /api/path and /api/port on demand. The drawing is every ftsw
// picture's (analyze/picture.c): the layout's positions, each half of a
// cable coloured and widened by what the node at that end sends, the same
// colour scale and widths. window.ftsw holds the page's state (the tests
// read it).
"use strict";
(function () {
const NS = "http://www.w3.org/2000/svg";
const IDLE = "#c4c4c4", DOWN = "#d02020", CYC = "#1a1aa0", TREE = "#8e24aa";
const PATHS = ["#ff9800", "#00acc1", "#e91e63", "#7cb342", "#5e35b1", "#8d6e63"];
const STEP = 120;		// FTSW_LAYOUT_GRID_STEP
const UP = 2, DOWNST = 1;	// FTSW_VIEW_UP, FTSW_VIEW_DOWN
const PAD = 70;

const S = window.ftsw = {
	topo: null, seq: 0, generation: 0, interval: 0, time: 0, lossless: false,
	state: [], pps: [], bps: [], pkt: [], pkt0: [], integ: [], occ: [], cw: [], wt: [],
	disc: [], inb: [], outb: [], peer: [], node: [], port: [], el: [],
	heads: [], cycles: [], waiting: [], events: [], seen: -1, fm: null, downAt: [], downSrv: [],
	sm: null, drops: 0, mode: "pps", top: 0, paths: null, pick: [],
	ready: false, updates: 0, frames: 0, dirty: new Set(), redraw: false,
	pending: false,
};
const $ = (id) => document.getElementById(id);

function svgEl(tag, attrs, parent) {
	const e = document.createElementNS(NS, tag);
	for (const k in attrs)
		e.setAttribute(k, attrs[k]);
	if (parent)
		parent.appendChild(e);
	return e;
}

// The colour scale of every ftsw picture: green (light) .. red (the top).
function colour(f) {
	if (!(f > 0))
		return IDLE;
	return "hsl(" + (120 * (1 - Math.min(f, 1))).toFixed(1) + ",80%,42%)";
}
function width(f) { return f > 0 ? 1.5 + 5 * Math.min(f, 1) : 1; }

function human(x, unit) {
	if (!(x > 0))
		return "0 " + unit;
	const k = [[1e9, "G"], [1e6, "M"], [1e3, "k"]];
	for (const [d, p] of k)
		if (x >= d)
			return (x / d).toPrecision(3) + " " + p + unit;
	return x.toPrecision(3).replace(/\.0+$/, "") + " " + unit;
}

function name(n) { return S.topo.nodes[n].n; }
function recName(r) {
	const n = S.node[r], o = S.node[S.peer[r]];
	const side = (x, q) => S.topo.nodes[x].n.startsWith("s") ? name(x) + ":" + q : name(x);
	return side(n, S.port[r]) + " \u2192 " + side(o, S.port[S.peer[r]]);
}

// ------------------------------------------------------------ drawing

function isHost(n) { return S.topo.nodes[n].n[0] === "h"; }
function X(n) { return S.topo.nodes[n].x + PAD; }
function Y(n) { return S.topo.nodes[n].y * S.ys + PAD; }

// A bent cable's stub end: away from the other end (picture.c's rule).
function stubEnd(a, b) {
	let dx = X(a) - X(b), dy = Y(a) - Y(b);
	if (Math.abs(dx) > 1.5 * STEP && Math.abs(dy) <= 1.5 * STEP)
		dy = 0;
	else if (Math.abs(dy) > 1.5 * STEP && Math.abs(dx) <= 1.5 * STEP)
		dx = 0;
	const n = Math.hypot(dx, dy) || 1, len = 0.42 * STEP;
	return [X(a) + dx / n * len, Y(a) + dy / n * len];
}

function halfEnd(r) {
	const a = S.node[r], b = S.node[S.peer[r]];
	if (S.bent[r])
		return stubEnd(a, b);
	return [(X(a) + X(b)) / 2, (Y(a) + Y(b)) / 2];
}

function drawBands(t) {
	const g = $("bands");
	if (t.layout !== "levels" || t.groups < 2)
		return;
	const box = [];
	t.nodes.forEach((n, i) => {
		if (n.g < 0 || (n.n[0] === "h" && !t.draw_hosts))
			return;
		const b = box[n.g] || (box[n.g] = [1e9, 1e9, -1e9, -1e9]);
		b[0] = Math.min(b[0], X(i)); b[1] = Math.min(b[1], Y(i));
		b[2] = Math.max(b[2], X(i)); b[3] = Math.max(b[3], Y(i));
	});
	S.labels = [];
	box.forEach((b, k) => {
		if (!b)
			return;
		svgEl("rect", { x: b[0] - 22, y: b[1] - 26, width: b[2] - b[0] + 44,
				height: b[3] - b[1] + 66, rx: 6, class: "band",
				"data-group": k }, g);
		const l = svgEl("text", { x: (b[0] + b[2]) / 2, y: b[3] + 34,
					  class: "bandl" }, g);
		l.textContent = "subtree " + k;
		S.labels.push(l);
	});
	for (let l = 1; l <= t.levels; l++) {
		const y = (t.levels - l) * 110 * S.ys + PAD;
		const e = svgEl("text", { x: PAD - 30, y: y + 4, class: "levell" }, g);
		e.textContent = l === t.levels ? "level " + l + " (top)" :
			l === 1 ? "level 1 (leaves)" : "level " + l;
		S.labels.push(e);
	}
}

function drawTopology(t) {
	const cables = $("cables"), nodes = $("nodes");
	S.bent = [];
	// a wide tree is drawn taller than its layout, so that its levels
	// stand apart when the whole of it is in view
	S.ys = t.layout === "levels" ? Math.min(12, Math.max(1, t.width / 2.4 / (t.height || 1))) : 1;
	drawBands(t);
	for (const c of t.cables) {
		const [a, ap, b, bp, ra, rb, bent] = c;
		S.node[ra] = a; S.port[ra] = ap; S.peer[ra] = rb;
		S.node[rb] = b; S.port[rb] = bp; S.peer[rb] = ra;
		S.bent[ra] = S.bent[rb] = bent;
		const host = isHost(a) || isHost(b);
		for (const r of [ra, rb]) {
			const [ex, ey] = halfEnd(r);
			const e = svgEl("line", { x1: X(S.node[r]), y1: Y(S.node[r]), x2: ex,
					      y2: ey, stroke: IDLE, "stroke-width": 1, id: "r" + r,
					      "data-rec": r }, cables);
			if (host)
				e.classList.add("hostc");
			S.el[r] = e;
			if (bent)
				svgEl("text", { x: ex + (ex - X(S.node[r])) * 0.18,
						y: ey + (ey - Y(S.node[r])) * 0.18 + 3,
						class: "stub" }, cables).textContent =
					name(S.node[S.peer[r]]);
		}
	}
	t.nodes.forEach((n, i) => {
		const g = svgEl("g", { "data-node": i }, nodes);
		if (n.n[0] === "s") {
			svgEl("rect", { x: X(i) - 17, y: Y(i) - 9, width: 34, height: 18, rx: 4,
					class: "st", id: "n" + i }, g);
			svgEl("text", { x: X(i), y: Y(i) + 3.5, class: "sl" }, g).textContent = n.n;
		} else {
			g.classList.add("hostn");
			svgEl("circle", { cx: X(i), cy: Y(i), r: 5, class: "ho", id: "n" + i }, g);
			svgEl("text", { x: X(i), y: Y(i) + 15, class: "hl" }, g).textContent = n.n;
			const o = document.createElement("option");
			o.value = n.n;
			$("hostlist").appendChild(o);
		}
	});
	const defs = svgEl("defs", {}, $("svg"));
	for (const [id, col] of [["arrowc", CYC], ["arrowt", TREE]]) {
		const m = svgEl("marker", { id: id, viewBox: "0 0 10 10", refX: 6, refY: 5,
					    markerWidth: 4, markerHeight: 4, orient: "auto" }, defs);
		svgEl("path", { d: "M0 0L10 5L0 10z", fill: col }, m);
	}
	$("hosts").checked = t.draw_hosts;
	showHosts();
	fit();
	window.addEventListener("resize", () => setView(view));
}

function showHosts() {
	const on = $("hosts").checked;
	for (const e of document.querySelectorAll(".hostn, .hostc"))
		e.style.display = on ? "" : "none";
}

// ------------------------------------------------------------ zoom

let view = [0, 0, 1, 1];
function setView(v) {
	view = v;
	const svg = $("svg");
	svg.setAttribute("viewBox", v.map((x) => x.toFixed(1)).join(" "));
	const px = Math.min(svg.clientWidth / v[2], svg.clientHeight / v[3]);
	svg.classList.toggle("zoomed-out", px < 0.45);
	// the subtrees' and levels' names keep their size on the screen
	for (const e of S.labels || [])
		e.style.fontSize = (12 / (px || 1)).toFixed(1) + "px";
}
function fit() {
	const t = S.topo, svg = $("svg");
	const w = t.width + 2 * PAD, h = t.height * S.ys + 2 * PAD + 30;
	const px = Math.min((svg.clientWidth || 800) / w, (svg.clientHeight || 600) / h);
	// room on the left for the levels' names, at their size on the screen
	const left = t.layout === "levels" ? Math.max(0, 130 / px - PAD) : 0;
	setView([-left, 0, w + left, h]);
}
function zoomTo(g) {
	const b = g.getBBox();
	setView([b.x - 20, b.y - 40, b.width + 40, b.height + 80]);
}
function zoom(f, cx, cy) {
	if (cx === undefined) {
		cx = view[0] + view[2] / 2;
		cy = view[1] + view[3] / 2;
	}
	setView([cx - (cx - view[0]) * f, cy - (cy - view[1]) * f, view[2] * f, view[3] * f]);
}
function svgPoint(ev) {
	const r = $("svg").getBoundingClientRect();
	const s = Math.max(view[2] / r.width, view[3] / r.height);
	const ox = view[0] + (view[2] - r.width * s) / 2, oy = view[1] + (view[3] - r.height * s) / 2;
	return [ox + (ev.clientX - r.left) * s, oy + (ev.clientY - r.top) * s, s];
}
function panZoom() {
	const svg = $("svg");
	let drag = null;
	svg.addEventListener("wheel", (ev) => {
		ev.preventDefault();
		const [x, y] = svgPoint(ev);
		zoom(ev.deltaY > 0 ? 1.2 : 1 / 1.2, x, y);
	}, { passive: false });
	svg.addEventListener("mousedown", (ev) => {
		drag = [ev.clientX, ev.clientY, view.slice(), false];
	});
	window.addEventListener("mousemove", (ev) => {
		if (!drag)
			return tip(ev);
		const s = svgPoint(ev)[2], dx = ev.clientX - drag[0], dy = ev.clientY - drag[1];
		if (Math.abs(dx) + Math.abs(dy) > 3) {
			drag[3] = true;
			svg.classList.add("panning");
			setView([drag[2][0] - dx * s, drag[2][1] - dy * s, drag[2][2], drag[2][3]]);
		}
	});
	window.addEventListener("mouseup", (ev) => {
		const moved = drag && drag[3];
		drag = null;
		svg.classList.remove("panning");
		if (!moved && ev.target.closest && ev.target.closest("#svg"))
			click(ev);
	});
	$("zoomin").onclick = () => zoom(1 / 1.5);
	$("zoomout").onclick = () => zoom(1.5);
	$("fit").onclick = fit;
}

// ------------------------------------------------------------ links

function metric(r) {
	if (S.mode === "buf")
		return S.occ[S.peer[r]] || 0;	// the buffer that takes what r sends
	return (S.mode === "bps" ? S.bps[r] : S.pps[r]) || 0;
}
function cableDown(r) {
	return S.state[r] === DOWNST || S.state[S.peer[r]] === DOWNST;
}
function drawRec(r) {
	const e = S.el[r];
	if (!e)
		return;
	const f = S.top > 0 ? metric(r) / S.top : 0, down = cableDown(r);
	e.setAttribute("stroke", down ? DOWN : colour(f));
	e.setAttribute("stroke-width", down ? 2 : width(f).toFixed(2));
	if (down)
		e.setAttribute("stroke-dasharray", "5 4");
	else
		e.removeAttribute("stroke-dasharray");
	e.dataset.pps = S.pps[r] || 0;
	e.dataset.width = down ? 0 : width(f);
}
function scaleTop() {
	if (S.mode === "buf")
		return 1;
	let m = 0;
	for (let r = 0; r < S.el.length; r++)
		if (S.el[r])
			m = Math.max(m, metric(r));
	// let the top sink slowly: the colours do not flicker
	return m >= S.top || S.top === 0 ? m : Math.max(m, S.top * 0.8);
}
function drawAll() {
	for (let r = 0; r < S.el.length; r++)
		drawRec(r);
	legend();
}

// ------------------------------------------------------------ snapshots

// A snapshot or a delta into the state, at once; the drawing follows at
// the next frame the browser has time for (a slow machine draws less
// often, never falls behind, and stays responsive).
function apply(d, full) {
	const dt = d.interval || 0;
	for (const [r, st, pps, bps, pkt] of d.links || []) {
		if (st !== S.state[r]) {
			/* when it went down: by this clock, and by the server's */
			S.downAt[r] = st === DOWNST ? Date.now() / 1000 : undefined;
			S.downSrv[r] = st === DOWNST ? d.time : undefined;
		}
		S.state[r] = st; S.pps[r] = pps; S.bps[r] = bps;
		if (S.pkt0[r] === undefined) {
			S.pkt0[r] = pkt;	/* the page's own count starts here */
			S.integ[r] = 0;
		}
		S.pkt[r] = pkt;
		S.dirty.add(r);
	}
	// what the page counts itself: rates times the interval
	if (!full && dt > 0)
		for (let r = 0; r < S.pps.length; r++)
			if (S.pps[r] > 0)
				S.integ[r] = (S.integ[r] || 0) + S.pps[r] * dt;
	for (const [r, occ, cw, wt, disc, inb, outb] of d.ll || []) {
		S.occ[r] = occ; S.cw[r] = cw; S.wt[r] = wt; S.disc[r] = disc;
		S.inb[r] = inb; S.outb[r] = outb;
		S.dirty.add(r);
		S.dirty.add(S.peer[r]);
	}
	const gen = S.generation;
	Object.assign(S, { seq: d.seq, generation: d.generation, interval: dt,
			   time: d.time, lossless: d.lossless, heads: d.heads || [],
			   cycles: d.cycles || [], fm: d.fm, sm: d.sm, drops: d.drops,
			   sample_ms: d.sample_ms });
	// the congestion tree: outputs waiting for credit from the buffer ahead
	S.waiting = [];
	for (let r = 0; S.lossless && r < S.wt.length; r++)
		if (waits(r))
			S.waiting.push(name(S.node[r]) + ":" + S.port[r]);
	events(d.events || []);
	if (S.paths && (S.generation !== gen ||
			[...S.dirty].some((r) => S.state[r] !== UP)))
		tracePaths(S.paths.src, S.paths.dst);
	S.redraw = S.redraw || full;
	if (!S.pending) {
		S.pending = true;
		requestAnimationFrame(render);
		setTimeout(render, 1000);	/* no frames (a hidden tab) */
	}
	S.updates++;
	document.body.dataset.seq = S.seq;
	document.body.dataset.ready = "1";
}

function render() {
	if (!S.pending)
		return;
	S.pending = false;
	const top = scaleTop();
	if (S.redraw || Math.abs(top - S.top) > 0.05 * Math.max(top, S.top)) {
		S.top = top;
		drawAll();
	} else {
		for (const r of S.dirty)
			drawRec(r);
	}
	S.redraw = false;
	S.dirty.clear();
	lossless();
	busiest();
	status();
	if (!S.ready)
		fit();		/* the page has its size by now */
	S.ready = true;
	S.frames++;
}

function events(list) {
	const ol = $("events");
	for (const e of list) {
		if (e.seq <= S.seen)
			continue;
		S.seen = e.seq;
		S.events.push(e);
		const li = document.createElement("li"), t = new Date(e.time * 1000);
		const tm = document.createElement("span"), k = document.createElement("span");
		tm.className = "time";
		tm.textContent = t.toLocaleTimeString([], { hour12: false });
		k.className = "kind k-" + e.kind;
		k.textContent = e.kind;
		li.append(tm, k, " " + e.text);
		ol.insertBefore(li, ol.firstChild);
	}
	while (S.events.length > 300)
		S.events.shift();
	while (ol.children.length > 300)
		ol.removeChild(ol.lastChild);
}

function status() {
	const t = S.topo, parts = ["generation " + S.generation,
		"sample " + S.seq + " every " + (t.interval * 1000).toFixed(0) + " ms"];
	if (S.lossless)
		parts.push("lossless");
	if (S.drops)
		parts.push(S.drops + " drops");
	if (S.fm)
		parts.push("fm: " + S.fm.sweeps + " sweeps, " + S.fm.usable + " of " +
			   S.fm.cables + " cables usable");
	if (S.sm)
		parts.push("OpenSM " + (S.sm.running ? "running" : "not running") + ": " +
			   S.sm.sweeps + " sweeps, " + S.sm.traps + " traps");
	parts.push("updated " + new Date(S.time * 1000).toLocaleTimeString([], { hour12: false }));
	$("status").textContent = parts.join(" \u00b7 ");
}

function busiest() {
	const recs = [];
	for (let r = 0; r < S.el.length; r++)
		if (S.el[r] && S.pps[r] > 0)
			recs.push(r);
	recs.sort((a, b) => S.pps[b] - S.pps[a]);
	const tb = $("busiest").tBodies[0];
	tb.textContent = "";
	for (const r of recs.slice(0, 10)) {
		const tr = tb.insertRow();
		tr.dataset.rec = r;
		for (const v of [recName(r), S.pps[r].toFixed(1), human(S.bps[r], "bit/s"),
				 String(S.pkt[r])])
			tr.insertCell().textContent = v;
	}
}

// ------------------------------------------------------------ lossless

// An arrow over the half of cable record r (what its end sends).
function arrowOver(r, cls, parent) {
	const a = S.node[r];
	const [ex, ey] = halfEnd(r);
	const x0 = X(a) + (ex - X(a)) * 0.25, y0 = Y(a) + (ey - Y(a)) * 0.25;
	return svgEl("path", { d: "M" + x0 + " " + y0 + "L" + ex + " " + ey,
			       class: "mark " + cls, "data-rec": r }, parent);
}
function recOf(sw, port) {
	const n = S.topo.nodes.findIndex((x) => x.n === "s" + sw);
	for (let r = 0; r < S.node.length; r++)
		if (S.node[r] === n && S.port[r] === port)
			return r;
	return -1;
}

// An output in the congestion tree: waiting for credit at the sample, or
// for 1 % of the interval before it (a tree under moving traffic waits on
// and off between two samples; the sample's instant alone would flicker).
function waits(r) {
	return S.el[r] && (S.wt[r] || (S.cw[r] || 0) >= 0.01);
}

function lossless() {
	const marks = $("marks");
	for (const e of [...marks.querySelectorAll(".cyc, .tree")])
		e.remove();
	if (!S.lossless)
		return;
	for (let r = 0; r < S.wt.length; r++)
		if (waits(r))
			arrowOver(r, "tree", marks);
	let disc = 0;
	for (const x of S.disc)
		disc += x || 0;
	$("ll").textContent = S.waiting.length + " outputs waiting for credit, " +
		S.heads.length + " input heads waiting, " + disc + " lifetime discards";
	$("ll").className = "";
	$("tree").textContent = S.waiting.length ? "Waiting for credit (the congestion " +
		"tree, dashed purple arrows toward the buffers ahead): " + S.waiting.join(", ") : "";
	const box = $("cycles");
	box.textContent = "";
	for (const c of S.cycles) {
		const p = document.createElement("div");
		p.className = "bad";
		p.textContent = "Cycle of " + c.bufs.length + " full buffers waiting on each " +
			"other on VL " + c.vl + " (CDG cross-check: " +
			(c.cdg > 0 ? "yes" : c.cdg === 0 ? "no" : "not checked") + "): " +
			c.bufs.map(([sw, ip, vl, op]) => "s" + sw + " in " + ip + " VL " + vl +
				   " \u2192 out " + op).join(", ");
		box.appendChild(p);
		for (const [sw, , , op] of c.bufs) {
			const r = recOf(sw, op);
			if (r >= 0)
				arrowOver(r, "cyc", marks);
		}
	}
}

// ------------------------------------------------------------ paths

async function tracePaths(src, dst) {
	const res = await fetch("api/path?src=" + encodeURIComponent(src) + "&dst=" +
				encodeURIComponent(dst));
	const p = await res.json();
	const box = $("paths");
	for (const e of [...$("marks").querySelectorAll(".path")])
		e.remove();
	box.textContent = "";
	box.className = "";
	if (!res.ok) {
		S.paths = null;
		box.textContent = p.error;
		box.className = "bad";
		return;
	}
	S.paths = p;
	const head = document.createElement("div");
	head.textContent = p.src + " \u2192 " + p.dst + ", tables of generation " +
		p.generation + ": " + p.paths.length + " path" + (p.paths.length > 1 ? "s" : "");
	box.appendChild(head);
	p.paths.forEach((x, i) => {
		const col = PATHS[i % PATHS.length];
		const d = document.createElement("div"), sq = document.createElement("span");
		d.className = "p";
		sq.className = "sq";
		sq.style.background = col;
		const hops = x.hops.map((h) => h.sw + ":" + h.out + " VL" + h.vl +
					(h.down ? " (DOWN)" : "")).join(" \u2192 ");
		d.append(sq, "LID " + x.dlid + " SL " + x.sl + (x.used ? "" :
			 " (the source does not send on this offset)") + ": " + hops +
			 (x.status === "delivered" ? "" : " \u2014 " + x.status));
		if (x.status !== "delivered" || x.hops.some((h) => h.down))
			d.classList.add("bad");
		box.appendChild(d);
		if (x.used || p.paths.length === 1)
			for (const r of x.records) {
				if (!S.el[r])
					continue;
				const a = S.node[r], b = S.node[S.peer[r]];
				const [ex, ey] = S.bent[r] ? halfEnd(r) : [X(b), Y(b)];
				svgEl("path", { d: "M" + X(a) + " " + Y(a) + "L" + ex + " " + ey,
						class: "path", stroke: col }, $("marks"));
			}
	});
}

function click(ev) {
	const t = ev.target;
	if (t.classList && t.classList.contains("ho")) {
		const n = +t.id.slice(1);
		S.pick.push(name(n));
		t.classList.add("pick");
		if (S.pick.length === 2) {
			$("src").value = S.pick[0];
			$("dst").value = S.pick[1];
			tracePaths(S.pick[0], S.pick[1]);
			for (const e of document.querySelectorAll(".pick"))
				e.classList.remove("pick");
			S.pick = [];
		}
		return;
	}
	if (t.dataset && t.dataset.rec !== undefined)
		portDetail(+t.dataset.rec);
	else if (t.dataset && t.dataset.group !== undefined)
		zoomTo(t);
}

async function portDetail(r) {
	const n = S.topo.nodes[S.node[r]].n;
	if (n[0] !== "s")
		return;
	const res = await fetch("api/port?sw=" + n + "&port=" + S.port[r]);
	const p = await res.json();
	const box = $("port");
	box.textContent = "";
	const h = document.createElement("div");
	h.textContent = "Port " + p.name + " \u2192 " + p.to + ": " + p.pps.toFixed(1) +
		" pkt/s, " + human(p.bps, "bit/s") + ", " + p.tx_packets + " packets sent, " +
		p.drops + " drops";
	box.appendChild(h);
	if (!p.vls.length)
		return;
	const tbl = document.createElement("table"), hr = tbl.createTHead().insertRow();
	for (const k of ["VL", "in B", "out B", "credits", "credit wait ms", "waits for",
			 "discards"])
		hr.appendChild(document.createElement("th")).textContent = k;
	for (const y of p.vls)
		tbl.insertRow().append(...[y.vl, y.in_bytes + "/" + p.in_buf, y.out_bytes,
			y.credits, y.credit_wait_ms.toFixed(0), y.head_port ? "port " +
			y.head_port + " VL " + y.head_vl + " (" + y.head_wait_ms.toFixed(0) +
			" ms)" : "", y.hoq_discards + y.life_discards].map((v) => {
			const c = document.createElement("td");
			c.textContent = v;
			return c;
		}));
	box.appendChild(tbl);
}

// ------------------------------------------------------------ legend, tip

function legend() {
	const L = $("legend");
	L.textContent = "";
	const unit = S.mode === "bps" ? "bit/s" : S.mode === "buf" ? "of the buffer" : "pkt/s";
	const item = (html, text) => {
		const s = document.createElement("span");
		s.append(html, text);
		L.appendChild(s);
	};
	const line = (col, w, dash) => {
		const s = document.createElementNS(NS, "svg");
		s.setAttribute("class", "sw");
		s.setAttribute("height", 10);
		svgEl("line", { x1: 0, y1: 5, x2: 30, y2: 5, stroke: col, "stroke-width": w,
				"stroke-dasharray": dash || "" }, s);
		return s;
	};
	const lab = S.mode === "buf" ? "input buffer filled (the buffer that takes what " +
		"a half sends):" : "each half of a cable is what its end sends, " +
		(S.mode === "bps" ? "bits" : "packets") + " per second:";
	L.append(lab);
	for (let k = 0; k <= 4; k++) {
		const v = S.top * k / 4;
		item(line(k ? colour(k / 4) : colour(1e-9), width(k ? k / 4 : 1e-9)),
		     S.mode === "buf" ? (25 * k) + "%" : human(v, unit));
	}
	item(line(IDLE, 1), "idle");
	item(line(DOWN, 2, "5 4"), "down");
	if (S.lossless) {
		item(line(TREE, 3, "6 3"), "waiting for credit");
		item(line(CYC, 3.5), "cycle of waiting buffers");
	}
	if (S.paths)
		item(line(PATHS[0], 7), "traced path");
}

function tip(ev) {
	const t = ev.target, T = $("tip");
	if (!t.dataset || t.dataset.rec === undefined || !S.topo) {
		T.hidden = true;
		return;
	}
	const r = +t.dataset.rec, o = S.peer[r];
	let s = recName(r) + ": " + (S.pps[r] || 0).toFixed(1) + " pkt/s, " +
		human(S.bps[r] || 0, "bit/s") + "; " + (S.pkt[r] || 0) + " packets sent" +
		(cableDown(r) ? "; DOWN" : "");
	if (S.lossless && S.occ[o] !== undefined)
		s += "; its far input buffer " + (100 * S.occ[o]).toFixed(0) + "% full" +
			(S.wt[r] ? "; waiting for credit" : "") + "; credit wait " +
			(100 * (S.cw[r] || 0)).toFixed(0) + "% of the last interval";
	T.textContent = s;
	T.hidden = false;
	T.style.left = (ev.clientX + 12) + "px";
	T.style.top = (ev.clientY + 12) + "px";
}

// ------------------------------------------------------------ start

async function start() {
	const res = await fetch("api/topology");
	const t = S.topo = await res.json();
	document.title = "ftsw lab view: " + t.lab;
	$("title").textContent = "lab " + t.lab + ": " + (t.spec || "") + ", " + t.engine +
		(t.lmc ? " (LMC " + t.lmc + ")" : "") + ", " + t.switches + " switches, " +
		t.hosts + " hosts";
	drawTopology(t);
	panZoom();
	$("mode").onchange = () => { S.mode = $("mode").value; S.top = scaleTop(); drawAll(); };
	$("hosts").onchange = showHosts;
	$("pathform").onsubmit = (ev) => {
		ev.preventDefault();
		tracePaths($("src").value.trim(), $("dst").value.trim());
	};
	$("clearpath").onclick = () => {
		S.paths = null;
		for (const e of [...$("marks").querySelectorAll(".path")])
			e.remove();
		$("paths").textContent = "";
		legend();
	};
	legend();
	const es = new EventSource("api/stream");
	es.addEventListener("snap", (e) => apply(JSON.parse(e.data), true));
	es.addEventListener("delta", (e) => apply(JSON.parse(e.data), false));
	es.onerror = () => { $("status").textContent = "reconnecting\u2026"; };
}

// for scripts driving the page (the selftest): trace a pair, frame a subtree
S.trace = (src, dst) => { $("src").value = src; $("dst").value = dst; return tracePaths(src, dst); };
S.frame = (k) => zoomTo(document.querySelector('.band[data-group="' + k + '"]'));
window.addEventListener("DOMContentLoaded", start);
})();
