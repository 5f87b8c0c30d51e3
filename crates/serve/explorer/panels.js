// The explorer page's panels for the other games, answered by the
// server's endpoints (so, unlike the Murder Plan game, they need it):
// the Liar's Dice endgame (GET /v1/dice/endgame), Cluedo advice
// (POST /v1/cluedo/advice) and Werewolf roles (POST /v1/werewolf/roles).
// An error is shown as the server names it: its message and the
// parameter it is about. The example logs are the repository's own
// (scripts/examples/, served at explorer/example/). No build step.

const $ = (id) => document.getElementById(id);
const pct = (p) => (100 * p).toFixed(2) + "%";

function element(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

// An answer's JSON, or an Error carrying the server's message and
// parameter.
async function answer(url, init) {
  let response;
  try {
    response = await fetch(url, init);
  } catch (e) {
    throw new Error(`the server is unavailable (${e.message})`);
  }
  const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const error = new Error(body.error + (body.parameter ? ` (parameter: ${body.parameter})` : ""));
    error.status = response.status;
    throw error;
  }
  return body;
}

function table(target, head, rows) {
  const t = element("table");
  const h = t.insertRow();
  for (const text of head) h.appendChild(element("th", text));
  for (const row of rows) {
    const r = t.insertRow();
    for (const cell of row) {
      const td = r.insertCell();
      if (cell instanceof Node) td.appendChild(cell);
      else td.textContent = String(cell);
    }
  }
  target.appendChild(t);
  return t;
}

function bar(p, className) {
  const track = element("div", undefined, `track ${className}`);
  const fill = element("div", undefined, "fill");
  fill.style.width = (100 * p).toFixed(2) + "%";
  track.appendChild(fill);
  return track;
}

// Liar's Dice endgame: the equilibrium moves of the player to move and
// the opponent's hand given the bids.
async function updateEndgame() {
  const q = new URLSearchParams();
  for (const id of ["dice", "sides", "history", "hand"]) {
    const value = $(`endgame-${id}`).value.trim();
    if (value !== "" || id === "dice") q.set(id, value);
  }
  q.set("wild", $("endgame-wild").checked);
  const out = $("endgame-out");
  try {
    const doc = await answer("/v1/dice/endgame?" + q);
    $("endgame-error").textContent = "";
    out.replaceChildren();
    const g = doc.game;
    const exact = g.value_exact ? ` = ${g.value_exact}` : "";
    out.appendChild(element("div",
      `${g.dice_one}v${g.dice_two}, ${g.sides}-sided, ${g.rules} rules: value to player 1 ` +
      `${g.value >= 0 ? "+" : ""}${g.value.toFixed(6)}${exact} (exploitability ${g.exploitability.toExponential(1)})`));
    const p = doc.point;
    const bids = p.history === "" ? "at the opening" : `after the bids ${p.history}`;
    out.appendChild(element("div",
      `${bids}: player ${p.to_move} to move` + (p.hand ? `, holding ${p.hand}` : " (give a hand for the moves)")));
    if (p.actions) {
      out.appendChild(element("h3", "Equilibrium moves"));
      table(out, ["move", "probability", ""], p.actions.map((a) => [a.action, pct(a.probability), bar(a.probability, "mm")]))
        .id = "endgame-actions";
    }
    if (p.note) {
      // A game stored by its support, at an information set without rows:
      // the moves above are the default, and the server says so.
      const note = element("div", p.note, "note");
      note.id = "endgame-note";
      out.appendChild(note);
    }
    out.appendChild(element("h3", "The opponent's hand given the bids"));
    if (p.opponent_posterior) {
      table(out, ["hand", "probability", ""], p.opponent_posterior.map((h) => [h.hand, pct(h.probability), bar(h.probability, "pr")]))
        .id = "endgame-posterior";
    } else {
      out.appendChild(element("div", "off the equilibrium path: no hand of the opponent bids like this", "note"));
    }
  } catch (e) {
    $("endgame-error").textContent = e.message;
    out.replaceChildren();
  }
}

// Cluedo: the ranked suggestions and the accusation line of a log.
async function updateCluedo() {
  const q = new URLSearchParams();
  const room = $("cluedo-room").value;
  if (room !== "") q.set("room", room);
  q.set("top", $("cluedo-top").value);
  const out = $("cluedo-out");
  try {
    const doc = await answer("/v1/cluedo/advice?" + q, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: $("cluedo-log").value,
    });
    $("cluedo-error").textContent = "";
    out.replaceChildren();
    out.appendChild(element("div",
      `advice for ${doc.player} (${doc.model} model): ${doc.live_triples} envelope triples possible, ` +
      `envelope entropy ${doc.envelope_entropy_bits.toFixed(3)} bits, ` +
      `${doc.considered} suggestions ranked by ${doc.objective.name} (${doc.objective.rule})`));
    const row = (s) => [
      s.rank, `${s.suspect}, ${s.weapon}, ${s.room}`, s.p_certain_after.toFixed(4), s.p_nobody.toFixed(4),
      s.expected_gain_bits.toFixed(4), s.p_shown.toFixed(3),
    ];
    const columns = ["rank", "suggestion", "P(certain after)", "P(nobody)", "gain bits", "P(shown)"];
    table(out, columns, doc.suggestions.map(row)).id = "cluedo-ranking";
    const dead = doc.dead_card_suggestions;
    if (dead.count > 0) {
      out.appendChild(element("div",
        `${dead.count} suggestions name a dead card (mine, or placed); the best of them:`));
      table(out, columns, dead.best.slice(0, 3).map(row)).id = "cluedo-dead";
    }
    const a = doc.accusation;
    out.appendChild(element("div",
      `accusation: ${a.suspect}, ${a.weapon}, ${a.room} wins with probability ${a.probability.toFixed(4)}` +
      (a.probability === 1 ? " (accuse now)" : ""), "accusation"));
    const r = a.race;
    out.appendChild(element("div",
      `race: accusing now wins ${r.p_win_accusing_now.toFixed(4)}; waiting one round about ` +
      `${r.p_win_waiting.toFixed(4)} (no opponent wins first ${r.p_no_opponent_first.toFixed(4)} × ` +
      `best next ${r.p_right_after_next.toFixed(4)}): ${r.accuse_now ? "accuse now" : "wait"}`, "race"));
  } catch (e) {
    $("cluedo-error").textContent = e.message;
    out.replaceChildren();
  }
}

// The form that builds a log: one suggestion appended to the log's list.
function addSuggestion() {
  let log;
  try {
    log = JSON.parse($("cluedo-log").value);
  } catch (e) {
    $("cluedo-error").textContent = `the log above is not JSON: ${e.message}`;
    return;
  }
  if ("me" in log) {
    // An old log numbers its seats from 0; the form numbers players from 1.
    $("cluedo-error").textContent =
      `this log has "me", the old format numbering seats from 0: write "viewer": ${log.me + 1} ` +
      "and number every seat from 1 (docs/cluedo.md), then add the suggestion";
    return;
  }
  const shownBy = $("cluedo-shown-by").value;
  const suggestion = {
    by: Number($("cluedo-by").value),
    cards: [$("cluedo-suspect").value, $("cluedo-weapon").value, $("cluedo-suggested-room").value],
    shown_by: shownBy === "" ? null : Number(shownBy),
  };
  const card = $("cluedo-card").value.trim();
  if (card !== "") suggestion.card = card;
  log.suggestions = [...(log.suggestions ?? []), suggestion];
  $("cluedo-log").value = JSON.stringify(log, null, 2);
  updateCluedo();
}

// Werewolf: P(role) of every player and the vote ranking.
async function updateWerewolf() {
  const q = new URLSearchParams({ rule: $("werewolf-rule").value });
  const out = $("werewolf-out");
  try {
    const doc = await answer("/v1/werewolf/roles?" + q, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: $("werewolf-log").value,
    });
    $("werewolf-error").textContent = "";
    out.replaceChildren();
    const roles = doc.roles;
    // The roles of the game, in the report's own order.
    const present = roles.counts.map(([role]) => role);
    out.appendChild(element("div",
      `${doc.players} players, ${doc.wolves} wolves; ${roles.assignments} role assignments; an elimination shows the ${roles.reveal}`));
    table(out, ["player", "alive", ...present.map((r) => `P(${r})`)], roles.players.map((p) => [
      p.player, p.alive ? "yes" : "dead", ...present.map((r) => p[r].toFixed(4)),
    ])).id = "werewolf-roles-table";
    out.appendChild(element("h3", `Vote ranking (${doc.rule} rule)`));
    const belief = new Map(doc.beliefs.map((b) => [b.player, b]));
    table(out, ["rank", "player", "P(wolf)", "information gain bits", "score"], doc.ranking.map((player, i) => {
      const b = belief.get(player);
      return [i + 1, player, b.p_wolf.toFixed(4),
        b.information_gain_bits === null ? "" : b.information_gain_bits.toFixed(4),
        b.score === null ? "" : b.score.toFixed(4)];
    })).id = "werewolf-ranking";
  } catch (e) {
    $("werewolf-error").textContent = e.message;
    out.replaceChildren();
  }
}

async function example(name) {
  const response = await fetch(new URL(`example/${name}`, import.meta.url));
  return response.ok ? response.text() : "";
}

async function start() {
  $("cluedo-log").value = await example("cluedo-game.json");
  $("werewolf-log").value = await example("werewolf-roles-7.json");
  $("endgame-form").addEventListener("change", updateEndgame);
  $("endgame-form").addEventListener("submit", (e) => { e.preventDefault(); updateEndgame(); });
  $("cluedo-advise").addEventListener("click", updateCluedo);
  $("cluedo-add").addEventListener("click", addSuggestion);
  $("werewolf-read").addEventListener("click", updateWerewolf);
  $("werewolf-rule").addEventListener("change", updateWerewolf);
}

start();
