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
  function render(s) {
    document.getElementById("sessions-count").textContent = s.sessions.length;
    document.getElementById("events-total").textContent = s.events_total;
    document.getElementById("decisions-total").textContent = s.decisions_total;
    if (last) {
      var dt = (new Date(s.time) - new Date(last.time)) / 1000;
      if (dt > 0) {
        document.getElementById("events-rate").textContent = ((s.events_total - last.events_total) / dt).toFixed(1);
        document.getElementById("decisions-rate").textContent = ((s.decisions_total - last.decisions_total) / dt).toFixed(1);
      }
    }
    last = s;
    document.getElementById("sessions-section").hidden = !s.sidecar;
    document.getElementById("decisions-section").hidden = !s.sidecar;
    document.getElementById("throughput-section").hidden = !s.sidecar;
    fill("sessions", s.sessions.map(function (x) {
      var tr = row([x.job, x.user, x.queue, x.policy, params(x.params), x.maps + "/" + x.reduces,
        x.tasks_running, x.tasks_done, x.events, x.decisions, x.applied, x.refused, time(x.since)]);
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
