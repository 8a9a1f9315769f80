// The live ops page: reads every region's figures from Prometheus (its HTTP API answers
// cross-origin) and draws them with uPlot, refreshed every 5 s. What Prometheus cannot say
// (where it is, the regions, their round trips, the SLA) comes from the broker's /ops/config.
// The same queries as the Grafana dashboards (infra/monitoring/grafana) and the alert rules.
"use strict";

const REFRESH_MS = 5000;
const WINDOW_S = 600;
const STEP_S = 5;

const QUERIES = {
  ticks: 'sum by (region) (rate(broker_ticks_total{result="accepted"}[30s]))',
  orders: 'sum by (region) (rate(broker_orders_total[30s]))',
  fills: 'sum by (region) (rate(broker_fills_total{outcome="filled"}[30s]))',
  t2fP50: 'histogram_quantile(0.5, sum by (region, le) (rate(broker_fill_tick_to_fill_seconds_bucket[1m])))',
  t2fP99: 'histogram_quantile(0.99, sum by (region, le) (rate(broker_fill_tick_to_fill_seconds_bucket[1m])))',
  floor: 'max by (region) (cassandra_client_request_latency_seconds{scope="Write",quantile="0.99"})',
  marketP99: 'histogram_quantile(0.99, sum by (region, route, le) (rate(broker_market_orders_seconds_bucket{outcome="filled"}[1m])))',
  lag: 'max by (region) (broker_tick_consumer_lag_records)',
  // state, read as instant vectors
  brokerUp: 'max by (region) (up{job="broker"})',
  wan: 'wan_region_connected',
  circuits: 'max by (region, name, state) (resilience4j_circuitbreaker_state) == 1',
  leases: 'sum by (region) (broker_decision_leases_held)',
};

const COLORS = ["#58a6ff", "#f0883e", "#3fb950", "#d2a8ff", "#ff7b72", "#79c0ff"];

// what the page showed last: read by the browser test (and handy in the console)
window.opsState = { updates: 0, errors: 0, points: {}, regions: {} };

let config;
let prometheus;
const charts = {};

async function main() {
  config = await (await fetch("/ops/config")).json();
  prometheus = (new URLSearchParams(location.search).get("prometheus") || config.prometheusUrl || "").replace(/\/$/, "");
  if (!prometheus) {
    problem("No Prometheus configured: start the broker with --broker.ops.prometheus-url=URL, or open /ops/?prometheus=URL");
    return;
  }
  document.getElementById("prometheus-link").href = prometheus;
  document.getElementById("prometheus-link").textContent = prometheus;
  document.getElementById("alerts-link").href = prometheus + "/alerts";
  renderRegionCards();
  await refresh();
  setInterval(refresh, REFRESH_MS);
}

function problem(text) {
  const p = document.getElementById("problem");
  p.textContent = text;
  p.hidden = !text;
}

async function promql(path, params) {
  const url = prometheus + path + "?" + new URLSearchParams(params);
  const answer = await fetch(url);
  const body = await answer.json();
  if (body.status !== "success") {
    throw new Error(body.error || ("HTTP " + answer.status));
  }
  return body.data.result;
}

const instant = (query) => promql("/api/v1/query", { query });
const range = (query, start, end) => promql("/api/v1/query_range", { query, start, end, step: STEP_S });

async function refresh() {
  const end = Math.floor(Date.now() / 1000 / STEP_S) * STEP_S;
  const start = end - WINDOW_S;
  try {
    const names = ["ticks", "orders", "fills", "t2fP50", "t2fP99", "floor", "marketP99", "lag"];
    const series = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await range(QUERIES[n], start, end)])));
    const state = Object.fromEntries(await Promise.all(["brokerUp", "wan", "circuits", "leases"].map(async (n) => [n, await instant(QUERIES[n])])));
    const xs = [];
    for (let t = start; t <= end; t += STEP_S) xs.push(t);
    drawCharts(xs, series);
    updateRegionCards(series, state);
    window.opsState.updates++;
    problem("");
    document.getElementById("status").textContent = "updated " + new Date().toLocaleTimeString() + " from " + prometheus;
  } catch (e) {
    window.opsState.errors++;
    problem("Prometheus at " + prometheus + " did not answer: " + e.message);
  }
}

// ---- charts ---------------------------------------------------------------------------------

/** One uPlot series per Prometheus series, aligned on the shared time axis (gaps stay null). */
function aligned(xs, result, label) {
  const index = new Map(xs.map((x, i) => [x, i]));
  return result.map((s) => {
    const ys = new Array(xs.length).fill(null);
    for (const [t, v] of s.values) {
      const i = index.get(Math.round(t));
      const n = parseFloat(v);
      if (i !== undefined && Number.isFinite(n)) ys[i] = n;
    }
    return { label: label(s.metric), ys };
  });
}

function constant(xs, value) {
  return xs.map(() => value);
}

function drawCharts(xs, s) {
  const ms = (v) => (v == null ? null : v * 1000);
  const toMs = (lines) => lines.map((l) => ({ ...l, ys: l.ys.map(ms) }));
  const region = (m) => m.region || "?";

  draw("throughput", xs, [
    ...aligned(xs, s.ticks, (m) => region(m) + " ticks/s"),
    ...aligned(xs, s.orders, (m) => region(m) + " orders/s"),
    ...aligned(xs, s.fills, (m) => region(m) + " fills/s"),
  ], "/s");

  draw("tick-to-fill", xs, [
    ...toMs(aligned(xs, s.t2fP50, (m) => region(m) + " p50")),
    ...toMs(aligned(xs, s.t2fP99, (m) => region(m) + " p99")),
    ...toMs(aligned(xs, s.floor, (m) => region(m) + " floor (DC write p99)")),
    { label: "SLA", ys: constant(xs, config.tickToFillSlaSeconds * 1000), dash: true },
  ], "ms");

  const rtts = [...new Set(Object.values(config.rttSeconds))];
  draw("market", xs, [
    ...toMs(aligned(xs, s.marketP99, (m) => region(m) + " " + m.route + " p99")),
    ...rtts.map((r) => ({ label: "round trip " + Math.round(r * 1000) + " ms", ys: constant(xs, r * 1000), dash: true })),
  ], "ms");

  draw("lag", xs, aligned(xs, s.lag, (m) => region(m) + " lag"), "records");
}

function draw(name, xs, lines, unit) {
  const el = document.getElementById("chart-" + name);
  const data = [xs, ...lines.map((l) => l.ys)];
  window.opsState.points[name] = lines.filter((l) => !l.dash).reduce((n, l) => n + l.ys.filter((y) => y != null).length, 0);
  const key = lines.map((l) => l.label).join("|");
  if (charts[name] && charts[name].key === key) {
    charts[name].plot.setData(data);
    return;
  }
  if (charts[name]) charts[name].plot.destroy();
  const opts = {
    width: Math.max(400, el.clientWidth),
    height: 240,
    scales: { x: { time: true } },
    axes: [
      { stroke: "#8b98a5", grid: { stroke: "#263040" } },
      { stroke: "#8b98a5", grid: { stroke: "#263040" }, label: unit, size: 60 },
    ],
    series: [{}, ...lines.map((l, i) => ({
      label: l.label,
      stroke: l.dash ? "#8b98a5" : COLORS[i % COLORS.length],
      dash: l.dash ? [6, 4] : undefined,
      width: 1.5,
      spanGaps: false,
      value: (u, v) => (v == null ? "-" : v.toFixed(v < 10 ? 2 : 0)),
    }))],
  };
  charts[name] = { key, plot: new uPlot(opts, data, el) };
}

// ---- region cards ---------------------------------------------------------------------------

function renderRegionCards() {
  const section = document.getElementById("regions");
  section.innerHTML = "";
  for (const r of config.regions) {
    const card = document.createElement("article");
    card.className = "region";
    card.id = "region-" + r.name;
    card.dataset.region = r.name;
    card.innerHTML = `<h2>${r.name} <span class="muted">${r.exchanges.join(", ")}</span>
        <span class="badge" data-field="broker">broker ?</span>
        <span class="badge" data-field="wan">WAN ?</span>
        <span class="badge" data-field="circuits">circuits ?</span>
        <span class="badge" data-field="leases">leases ?</span></h2>
      <div class="figures">
        ${figure("ticks", "ticks/s")}${figure("orders", "orders/s")}${figure("fills", "fills/s")}
        ${figure("t2f", "ticker-to-fill p50 / p99 ms")}${figure("floor", "floor: DC write p99 ms")}${figure("lag", "consumer lag (records)")}
        ${figure("market-local", "MARKET local p99 ms")}${figure("market-cross", "MARKET routed p99 ms")}${figure("rtt", "round trip ms")}
      </div>`;
    section.appendChild(card);
  }
}

function figure(field, label) {
  return `<div class="figure"><div class="value" data-field="${field}">-</div><div class="label">${label}</div></div>`;
}

function last(result, match) {
  const s = result.find((x) => Object.entries(match).every(([k, v]) => x.metric[k] === v));
  if (!s) return null;
  for (let i = s.values.length - 1; i >= 0; i--) {
    const v = parseFloat(s.values[i][1]);
    if (Number.isFinite(v)) return v;
  }
  return null;
}

const fmt = (v, digits = 1) => (v == null ? "-" : v.toFixed(digits));
const msOf = (v) => (v == null ? null : v * 1000);

function updateRegionCards(s, state) {
  for (const r of config.regions) {
    const name = r.name;
    const card = document.getElementById("region-" + name);
    const set = (field, text, cls) => {
      const el = card.querySelector(`[data-field="${field}"]`);
      el.textContent = text;
      if (cls !== undefined) el.className = el.className.split(" ")[0] + " " + cls;
    };
    const up = state.brokerUp.find((x) => x.metric.region === name);
    const brokerUp = up && up.value[1] === "1";
    const wan = state.wan.find((x) => x.metric.region === name);
    const wanState = !wan ? "unknown" : wan.value[1] === "1" ? "connected" : "cut";
    const open = state.circuits.filter((x) => x.metric.region === name && x.metric.state !== "closed");
    const leases = state.leases.find((x) => x.metric.region === name);

    card.dataset.broker = brokerUp ? "up" : "down";
    card.dataset.wan = wanState;
    set("broker", brokerUp ? "broker up" : "broker DOWN", brokerUp ? "ok" : "bad");
    set("wan", wanState === "cut" ? "WAN CUT" : wanState === "connected" ? "WAN connected" : "WAN not emulated", wanState === "cut" ? "bad" : wanState === "connected" ? "ok" : "");
    set("circuits", open.length ? "circuit " + open.map((c) => c.metric.name + " " + c.metric.state).join(", ") : "circuits closed",
        open.length ? "bad" : "ok");
    set("leases", leases ? "leases " + leases.value[1] : "leases -", "");

    const p50 = msOf(last(s.t2fP50, { region: name }));
    const p99 = msOf(last(s.t2fP99, { region: name }));
    const rttKey = Object.keys(config.rttSeconds).find((k) => k.startsWith(name + ">"));
    const rtt = rttKey ? config.rttSeconds[rttKey] * 1000 : null;
    const cross = msOf(last(s.marketP99, { region: name, route: "cross-region" }));
    set("ticks", fmt(last(s.ticks, { region: name })));
    set("orders", fmt(last(s.orders, { region: name })));
    set("fills", fmt(last(s.fills, { region: name })));
    set("t2f", fmt(p50) + " / " + fmt(p99), "value" + (p99 != null && p99 > config.tickToFillSlaSeconds * 1000 ? " over" : ""));
    set("floor", fmt(msOf(last(s.floor, { region: name }))));
    set("lag", fmt(last(s.lag, { region: name }), 0));
    set("market-local", fmt(msOf(last(s.marketP99, { region: name, route: "local" }))));
    set("market-cross", fmt(cross), "value" + (cross != null && rtt != null && cross > rtt * config.crossRegionBudget ? " over" : ""));
    set("rtt", fmt(rtt, 0));
    window.opsState.regions[name] = { broker: card.dataset.broker, wan: wanState, circuitsOpen: open.length };
  }
}

main().catch((e) => problem("The ops page failed to start: " + e.message));
