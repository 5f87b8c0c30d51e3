// The explorer page's game: play a whole Murder Plan game as either side
// against the optimal opponent, entirely in this page. The rules and the
// tables come from the WebAssembly module (../web/index.js, the project's
// Rust: gametab-games and gametab-lookup) and the browser bundle of the
// table set (../web/murder_plan_browser.bin.gz); once both are loaded the
// game needs no server. No build step: this file is served as it is.
//
// A turn: the player picks three cards; the opponent's are drawn from its
// stored optimal strategy with the next number of a seeded generator
// (shown after the turn with the number); the brain takes its optimal
// target; the state advances by the rules. The log shows the value before
// and after, the value of the player's play against the opponent's
// optimal strategy and what it gave up against the best play.
// window.gametabGame() returns the game's record (for the browser test).

const $ = (id) => document.getElementById(id);
const pct = (p) => (100 * p).toFixed(2) + "%";
const points = (p) => (100 * p).toFixed(2) + " pt";
const cards = (a) => `${a.keyPerson} / ${a.brain} / ${a.killer}`;
const offset = (o) => `(${o[0]},${o[1]})`;
const same = (a, b) => a.keyPerson === b.keyPerson && a.brain === b.brain && a.killer === b.killer;
const other = (side) => (side === "mastermind" ? "protagonists" : "mastermind");
const CHARACTERS = [["keyPerson", "key person"], ["brain", "brain"], ["killer", "killer"]];

let plan;
let game;
let Random;

function element(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

function startLabel(state) {
  return `x=${offset(state.brain)} y=${offset(state.killer)}`;
}

function fillStarts() {
  const horizon = Number($("game-days").value);
  const chosen = $("game-start").value || "1";
  const select = $("game-start");
  select.replaceChildren();
  plan.rules.starts().forEach((start, i) => {
    const option = element("option", `${startLabel(start)} — V = ${pct(plan.winRate(horizon, start))}`);
    option.value = String(i);
    option.selected = String(i) === chosen;
    select.appendChild(option);
  });
}

// The 2x2 board, the key person's area at the top left: a character at
// offset (a, b) from it stands in column a, row b.
function board(state) {
  const grid = element("div", undefined, "board");
  for (let row = 0; row < 2; row++) {
    for (let column = 0; column < 2; column++) {
      const area = element("div", undefined, "area");
      area.appendChild(element("span", `(${column},${row})`, "where"));
      const here = (o) => o[0] === column && o[1] === row;
      if (column === 0 && row === 0) area.appendChild(element("span", "key person", "token kp"));
      if (here(state.brain)) area.appendChild(element("span", "brain", "token br"));
      if (here(state.killer)) area.appendChild(element("span", "killer", "token ki"));
      grid.appendChild(area);
    }
  }
  return grid;
}

function stateText(state) {
  return `killer intrigue ${state.killerIntrigue}/4, key-person intrigue ${state.keyPersonIntrigue}/2; ` +
    `mastermind: diagonal ${state.diagonalLeft ? "left" : "used"}, intrigue+2 ${state.intrigue2Left ? "left" : "used"}; ` +
    `protagonists: ${state.forbidMovementLeft} forbid-movement left`;
}

// The card choices: for each character, every card that some legal
// action puts there (the module refuses a combination that is illegal).
function fillCards() {
  const legal = plan.rules.legalActions(game.side, game.state);
  for (const [key] of CHARACTERS) {
    const select = $(`game-card-${key}`);
    const previous = select.value;
    select.replaceChildren();
    for (const card of [...new Set(legal.map((a) => a[key]))]) {
      const option = element("option", card);
      option.value = card;
      option.selected = card === previous || (previous === "" && card === "blank");
      select.appendChild(option);
    }
  }
  $("game-legal").textContent = `${legal.length} legal plays`;
}

function render() {
  const area = $("game-board");
  area.replaceChildren(board(game.state));
  $("game-state").textContent = stateText(game.state);
  const over = game.result !== undefined;
  $("game-play").disabled = over;
  $("game-turn").hidden = over;
  if (!over) {
    const v = plan.value(game.days, game.state);
    $("game-now").textContent = `Turn ${game.turns.length + 1} of ${game.horizon}: ${game.days} days left, ` +
      `V = ${pct(v)} (the mastermind's win probability under optimal play); you play the ${game.side}.`;
    fillCards();
  } else {
    $("game-now").textContent = "";
  }
  const log = $("game-log");
  log.replaceChildren();
  const head = log.insertRow();
  for (const text of ["#", "days left", "your cards", "opponent's cards", "u", "brain", "V before", "V after", "your play's value", "gave up", "best play"]) {
    head.appendChild(element("th", text));
  }
  for (const t of game.turns) {
    const row = log.insertRow();
    const cells = [
      t.turn, t.days, cards(t.mine), cards(t.theirs), t.u.toFixed(4),
      t.brain.target.replace("_", " "), pct(t.valueBefore), pct(t.valueAfter),
      pct(t.myValue), points(t.gaveUp), cards(t.best),
    ];
    for (const text of cells) row.insertCell().textContent = String(text);
  }
  $("game-result").textContent = over ? game.result : "";
}

function newGame() {
  const start = plan.rules.starts()[Number($("game-start").value)];
  const horizon = Number($("game-days").value);
  const seed = Number($("game-seed").value) >>> 0;
  game = {
    side: $("game-side").value,
    horizon,
    seed,
    rng: new Random(seed),
    start,
    startValue: plan.value(horizon, start),
    days: horizon,
    state: start,
    turns: [],
    result: undefined,
  };
  $("game-error").textContent = "";
  $("game-area").hidden = false;
  render();
}

function chosenAction() {
  const action = {};
  for (const [key] of CHARACTERS) action[key] = $(`game-card-${key}`).value;
  return action;
}

function finish(next) {
  const total = game.turns.reduce((sum, t) => sum + t.gaveUp, 0);
  const summary = ` You played the ${game.side}; the game's value at the start was ${pct(game.startValue)}; ` +
    `your plays gave up ${points(total)} in all against the best plays.`;
  if (plan.rules.isWon(next)) {
    const why = next.killerIntrigue >= 4
      ? "the killer reached intrigue 4"
      : "the killer is with the key person, who has intrigue 2";
    game.winner = "mastermind";
    game.result = `Game over: the mastermind wins on turn ${game.turns.length} (${why}).${summary}`;
  } else if (game.days === 0) {
    game.winner = "protagonists";
    game.result = `Game over: the protagonists win, the mastermind has not won in ${game.horizon} turns.${summary}`;
  }
}

function playTurn() {
  const mine = chosenAction();
  const days = game.days;
  const state = game.state;
  try {
    plan.rules.check(game.side, state, mine);
  } catch (e) {
    $("game-error").textContent = e.message;
    return;
  }
  $("game-error").textContent = "";
  const u = game.rng.next();
  const theirs = plan.sample(other(game.side), days, state, u);
  const [mastermind, protagonists] = game.side === "mastermind" ? [mine, theirs] : [theirs, mine];
  const moves = plan.moves(game.side, days, state);
  const myMove = moves.find((m) => same(m.action, mine));
  const best = moves[0];
  const turn = plan.rules.turn(state, mastermind, protagonists);
  const brain = plan.brainChoice(days, turn.afterCards);
  const next = plan.rules.applyBrain(turn.afterCards, brain.target);
  game.turns.push({
    turn: game.turns.length + 1,
    days,
    state,
    stateIndex: plan.rules.index(state),
    mine,
    theirs,
    u,
    mastermind,
    protagonists,
    afterCards: turn.afterCards,
    brain,
    next,
    valueBefore: plan.value(days, state),
    valueAfter: plan.value(days - 1, next),
    myValue: myMove.value,
    myLoss: myMove.loss,
    best: best.action,
    bestValue: best.value,
    gaveUp: myMove.loss - best.loss,
  });
  game.state = next;
  game.days = days - 1;
  finish(next);
  render();
}

async function load() {
  const started = performance.now();
  try {
    const module = await import("../web/index.js");
    Random = module.Random;
    plan = await module.loadMurderPlan(new URL("../web/murder_plan_browser.bin.gz", import.meta.url), {
      wasm: new URL("../web/gametab_web_bg.wasm", import.meta.url),
    });
  } catch (e) {
    $("game-status").textContent = `the game cannot start: ${e.message} (the module is built by scripts/build-web, the bundle by gametab build)`;
    return;
  }
  const ms = performance.now() - started;
  $("game-status").textContent = `ready: ${plan.positions} positions of ${plan.generator}'s tables, ` +
    `module and bundle loaded in ${ms.toFixed(0)} ms; the game runs in this page`;
  for (let d = 1; d <= 8; d++) {
    const option = element("option", d);
    option.value = String(d);
    option.selected = d === 8;
    $("game-days").appendChild(option);
  }
  fillStarts();
  $("game-days").addEventListener("change", fillStarts);
  $("game-new").disabled = false;
  $("game-new").addEventListener("click", newGame);
  $("game-play").addEventListener("click", playTurn);
  window.gametabGame = () => game && JSON.parse(JSON.stringify({ ...game, rng: undefined }));
}

load();
