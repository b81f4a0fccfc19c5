// The dashboard's live view: one server-sent event per second carries the
// whole state (internal/dashboard, State); this renders it.
"use strict";
(function () {
  var last = null;
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function row(cells, cls) {
    var tr = el("tr", undefined, cls);
    cells.forEach(function (c) {
      if (c instanceof Node) { var td = el("td"); td.appendChild(c); tr.appendChild(td); }
      else tr.appendChild(el("td", c));
    });
    return tr;
  }
  function fill(id, rows, emptyId) {
    var body = document.querySelector("#" + id + " tbody");
    body.replaceChildren.apply(body, rows);
    document.getElementById(emptyId).hidden = rows.length > 0;
  }
  function time(t) { return t ? new Date(t).toLocaleTimeString() : ""; }
  function ms(x) { return (x / 1000).toFixed(1) + " s"; }
  function params(p) {
    return Object.keys(p || {}).sort().map(function (k) { return k + "=" + p[k]; }).join(", ");
  }
  // The rates this page has seen, one sample per state (about a second
  // apart), newest last: the throughput charts' data, kept client-side so
  // the server stays stateless.
  var HISTORY = 300, rates = { events: [], decisions: [] };
  function remember(list, v) {
    list.push(v);
    if (list.length > HISTORY) list.shift();
  }
  // spark draws values into the svg as a line: the newest at the right
  // edge, scaled to the largest value seen in the window (at least 1).
  function spark(id, values) {
    var svg = document.getElementById(id), w = 300, h = 48, ns = "http://www.w3.org/2000/svg";
    var max = Math.max.apply(null, values.concat([1])), n = values.length;
    var base = document.createElementNS(ns, "line");
    base.setAttribute("x1", 0); base.setAttribute("x2", w);
    base.setAttribute("y1", h - 1); base.setAttribute("y2", h - 1);
    var line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", values.map(function (v, i) {
      return (w - (n - 1 - i) * w / (HISTORY - 1)).toFixed(1) + "," + (h - 2 - v / max * (h - 6)).toFixed(1);
    }).join(" "));
    var title = document.createElementNS(ns, "title");
    title.textContent = "peak " + max.toFixed(1) + "/s over the window";
    svg.replaceChildren(title, base, line);
  }
  function progress(done, total) {
    var pct = total > 0 ? Math.min(100, Math.round(100 * done / total)) : 0;
    var wrap = el("span"), bar = el("span", undefined, "bar"), fillBar = el("span");
    fillBar.style.width = pct + "%";
    bar.appendChild(fillBar);
    wrap.appendChild(bar);
    wrap.appendChild(el("span", pct + "%", "pct"));
    return wrap;
  }
  function render(s) {
    document.getElementById("sessions-count").textContent = s.sessions.length;
    document.getElementById("events-total").textContent = s.events_total;
    document.getElementById("decisions-total").textContent = s.decisions_total;
    if (last) {
      var dt = (new Date(s.time) - new Date(last.time)) / 1000;
      if (dt > 0) {
        var ev = (s.events_total - last.events_total) / dt, dec = (s.decisions_total - last.decisions_total) / dt;
        document.getElementById("events-rate").textContent = ev.toFixed(1);
        document.getElementById("decisions-rate").textContent = dec.toFixed(1);
        remember(rates.events, ev);
        remember(rates.decisions, dec);
        spark("events-chart", rates.events);
        spark("decisions-chart", rates.decisions);
      }
    }
    last = s;
    var applied = 0, refused = 0;
    s.sessions.forEach(function (x) { applied += x.applied; refused += x.refused; });
    document.getElementById("acks-applied").textContent = applied;
    document.getElementById("acks-refused").textContent = refused;
    document.getElementById("version").textContent = s.version ? "version " + s.version : "";
    document.getElementById("sessions-section").hidden = !s.sidecar;
    document.getElementById("decisions-section").hidden = !s.sidecar;
    document.getElementById("throughput-section").hidden = !s.sidecar;
    fill("sessions", s.sessions.map(function (x) {
      var tr = row([x.job, x.user, x.queue, x.member ? x.policy + "\u2192" + x.member : x.policy, params(x.params), x.maps + "/" + x.reduces,
        x.tasks_running, x.tasks_done, x.events, x.decisions, x.applied, x.refused, time(x.since),
        progress(x.tasks_done, x.maps + x.reduces)]);
      tr.dataset.job = x.job;
      return tr;
    }), "no-sessions");
    fill("decisions", s.decisions.map(function (d) {
      var answer = d.result ? d.result + (d.refusal ? ": " + d.refusal : "") : "not acked yet";
      var tr = row([time(d.time), d.job, d.policy, d.id, d.kind, d.task, d.attempt || "", d.reason || "", el("span", answer, d.result || "")]);
      tr.dataset.job = d.job;
      return tr;
    }), "no-decisions");
    document.getElementById("analyzer").textContent = s.analyzer ? "Analyzer: " + s.analyzer : "";
    document.getElementById("capacity").textContent = s.capacity ? "Cluster capacity: " + s.capacity : "";
    document.getElementById("job-order").textContent = s.job_order ? "Job order: " + s.job_order : "";
    var states = { healthy: 0, suspected: 0, failed: 0 };
    s.nodes.forEach(function (n) { if (n.state in states) states[n.state]++; });
    Object.keys(states).forEach(function (k) { document.getElementById("nodes-" + k).textContent = states[k]; });
    fill("nodes", s.nodes.map(function (n) {
      var recent = (n.recent || []).map(function (e) {
        return ms(e.duration) + (e.failed ? " (failed)" : e.suspected ? " (suspected)" : "");
      }).join(", ");
      var tr = row([n.node, el("span", n.state, "state-" + n.state), ms(n.threshold_ms),
        n.open ? time(n.open.from) : "", n.episodes, recent]);
      tr.dataset.node = n.node;
      return tr;
    }), "no-nodes");
    document.getElementById("updated").textContent = "updated " + time(s.time);
  }
  var status = document.getElementById("status");
  var source = new EventSource("/dashboard/events");
  source.onopen = function () { status.textContent = "live"; status.className = "status live"; };
  source.onerror = function () { status.textContent = "reconnecting…"; status.className = "status down"; };
  source.onmessage = function (m) { render(JSON.parse(m.data)); };
})();
