// The page of `rafle serve`: it draws what the server sends and sends what the user does. The
// rules live on the server: the page only offers the legal moves the server listed.
"use strict";

// Longest PDN file sent to the server, in bytes (the server's own limit is larger: the JSON
// around the text and its escapes need room).
const MAX_PDN_BYTES = 128 * 1024;

// How often the running clock is redrawn, in milliseconds.
const CLOCK_TICK_MS = 100;
// Below this many milliseconds a clock shows tenths of a second.
const CLOCK_TENTHS_BELOW_MS = 10000;
const MS_PER_MINUTE = 60000;
const MS_PER_SECOND = 1000;
// A press that moves farther than this, in pixels, is a drag rather than a click.
const DRAG_THRESHOLD_PX = 5;

// The class of each mark in the reviewed move list (colours as in `rafle annotate`'s page).
const MARK_CLASSES = { "!": "m-good", "?!": "m-dubious", "?": "m-mistake", "??": "m-blunder" };

const $ = (id) => document.getElementById(id);
let socket = null;
let state = null;
let selected = null;
let lastInfo = null;
// The latest iteration of each line of a multi-line analysis, best line first.
let shownLines = [];
// The clocks as the server last sent them, and when they arrived: the page counts the running
// one down between states, the server keeps the real time.
let clockShown = null;
// The piece being dragged: where it was taken from and where the press began.
let drag = null;
// A drag ends with a click event on the board, which must not count as a click too.
let dragEnded = false;

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws");
  socket.onmessage = (event) => handle(JSON.parse(event.data));
  socket.onclose = () => {
    $("status").textContent = "Disconnected from Rafle: reload the page.";
  };
}

function send(request) {
  showError(null);
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(request));
  }
}

function handle(message) {
  switch (message.type) {
    case "hello":
      fillVariants(message.variants);
      $("seconds").min = message.seconds[0];
      $("seconds").max = message.seconds[1];
      fillLevels(message.levels);
      $("lines").max = message.max_lines;
      $("minutes").min = message.clock_minutes[0];
      $("minutes").max = message.clock_minutes[1];
      $("increment").max = message.max_increment;
      break;
    case "state":
      state = message;
      render();
      break;
    case "info":
      showInfo(message);
      break;
    case "pdn":
      download(message.text);
      break;
    case "review_progress":
      $("review-progress").max = message.total;
      $("review-progress").value = message.done;
      $("review-progress").title = `${message.done} of ${message.total} positions searched`;
      break;
    case "review":
      showReview(message);
      break;
    case "error":
      showError(message.message);
      break;
  }
}

function fillVariants(variants) {
  const select = $("variant");
  select.replaceChildren(
    ...variants.map((variant) => {
      const option = document.createElement("option");
      option.value = variant.name;
      option.textContent = variant.name;
      return option;
    }),
  );
}

function fillLevels([weakest, strongest]) {
  const levels = [];
  for (let level = strongest; level >= weakest; level--) {
    const option = document.createElement("option");
    option.value = level;
    option.textContent = level === strongest ? `${level} (full strength)` : `${level}`;
    levels.push(option);
  }
  $("level").replaceChildren(...levels);
}

function capitalised(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function render() {
  const position = state.position;
  selected = null;
  drag = null;
  if (document.body.dataset.fen !== position.fen) {
    // The last search's score and line were of another position.
    $("score").textContent = "–";
    $("depth").textContent = "";
    $("pv").textContent = "";
  }
  if (document.body.dataset.fen !== position.fen || state.lines <= 1 || state.mode !== "analyse") {
    shownLines = [];
    $("lines-shown").replaceChildren();
    $("lines-shown").hidden = true;
  }
  $("board").innerHTML = position.svg;
  $("variant").value = position.variant;
  $("engine").value = state.engine;
  $("seconds").value = state.seconds;
  $("level").value = state.level;
  $("lines").value = state.lines;
  $("time-kind").value = state.time_control ? "clock" : "move";
  if (state.time_control) {
    $("minutes").value = state.time_control.minutes;
    $("increment").value = state.time_control.increment;
  }
  showTimeKind();
  clockShown = state.clock ? { ...state.clock, at: performance.now() } : null;
  tickClock();
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.checked = radio.value === state.mode;
  }
  $("bar").classList.toggle("flipped", state.flipped);
  $("moves").textContent = position.moves || "–";
  // A review of the game as it stands replaces the plain move list.
  $("moves").hidden = state.reviewed;
  $("review-result").hidden = !state.reviewed;
  $("review").disabled = state.reviewing;
  $("cancel-review").hidden = !state.reviewing;
  $("review-progress").hidden = !state.reviewing;
  if (state.reviewing) {
    $("review-progress").value = 0;
  }
  for (const move of document.querySelectorAll("#review-moves .review-move")) {
    move.classList.toggle("current", Number(move.dataset.ply) === state.ply);
  }
  document.body.dataset.reviewed = String(state.reviewed);
  $("redo").disabled = !state.forward;
  const result = $("result");
  result.hidden = !state.result;
  result.textContent = state.result ? "Game over: " + state.result : "";
  let status = capitalised(position.side) + " to move";
  if (state.reviewing) {
    status = "Reviewing the game…";
  } else if (state.thinking && state.mode === "play") {
    status += ": Rafle is thinking…";
  } else if (state.thinking) {
    status += ": Rafle is analysing…";
  } else if (position.legal.length > 0) {
    status += ": your move";
  }
  $("status").textContent = state.result ? "" : status;
  document.body.dataset.fen = position.fen;
  document.body.dataset.plies = position.moves.split(" ").filter((w) => w && !w.endsWith(".")).length;
  $("choices").hidden = true;
  highlight();
}

function showTimeKind() {
  const clock = $("time-kind").value === "clock";
  $("per-move").hidden = clock;
  $("clock-setting").hidden = !clock;
}

function formatClock(ms) {
  const left = Math.max(0, ms);
  const minutes = Math.floor(left / MS_PER_MINUTE);
  const seconds = (left % MS_PER_MINUTE) / MS_PER_SECOND;
  const shown =
    left < CLOCK_TENTHS_BELOW_MS
      ? seconds.toFixed(1).padStart(4, "0")
      : String(Math.floor(seconds)).padStart(2, "0");
  return `${minutes}:${shown}`;
}

// Draws both clocks, the running one counted down since the server's last word.
function tickClock() {
  $("clocks").hidden = !clockShown;
  if (!clockShown) {
    delete document.body.dataset.clockWhite;
    delete document.body.dataset.clockBlack;
    return;
  }
  const elapsed = performance.now() - clockShown.at;
  for (const side of ["white", "black"]) {
    const running = clockShown.running === side;
    const ms = clockShown[side + "_ms"] - (running ? elapsed : 0);
    const element = $("clock-" + side);
    element.textContent = `${capitalised(side)} ${formatClock(ms)}`;
    element.classList.toggle("running", running);
    element.classList.toggle("out", ms <= 0);
    document.body.dataset["clock" + capitalised(side)] = String(Math.max(0, Math.round(ms)));
  }
}

function squareAt(bit) {
  return $("board").querySelector(`rect.square[data-bit="${bit}"]`);
}

function highlight() {
  for (const square of $("board").querySelectorAll("rect.square")) {
    square.classList.remove("selected", "target", "movable");
  }
  if (!state) {
    return;
  }
  for (const move of state.position.legal) {
    const from = squareAt(move.from);
    if (from && selected === null) {
      from.classList.add("movable");
    }
  }
  if (selected !== null) {
    squareAt(selected)?.classList.add("selected");
    for (const move of state.position.legal.filter((m) => m.from === selected)) {
      squareAt(move.to)?.classList.add("target");
    }
  }
}

function clicked(event) {
  if (dragEnded) {
    dragEnded = false;
    return;
  }
  const element = event.target.closest("[data-bit]");
  if (!element || !state) {
    return;
  }
  const bit = Number(element.dataset.bit);
  const legal = state.position.legal;
  if (selected !== null && moveTo(bit)) {
    return;
  }
  selected = legal.some((m) => m.from === bit) && selected !== bit ? bit : null;
  $("choices").hidden = true;
  highlight();
}

// The landing of a move chosen by click or drag: one move plays, several captures with the same
// ends ask which one; false when no legal move goes there.
function moveTo(bit) {
  const moves = state.position.legal.filter((m) => m.from === selected && m.to === bit);
  if (moves.length === 1) {
    play(moves[0]);
  } else if (moves.length > 1) {
    chooseRoute(moves);
  }
  return moves.length > 0;
}

// Drag and drop: a press on a piece that can move, then moved past the threshold, takes the
// piece along under the pointer with its destinations shown; released over one, it plays as a
// click there would. A press that does not move stays a click.
function pressed(event) {
  // A drag whose click never came must not swallow this press's click.
  dragEnded = false;
  const piece = event.target.closest("g.piece[data-bit]");
  if (!piece || !state || event.button !== 0) {
    return;
  }
  const bit = Number(piece.dataset.bit);
  if (!state.position.legal.some((m) => m.from === bit)) {
    return;
  }
  drag = {
    bit,
    piece,
    x: event.clientX,
    y: event.clientY,
    pointer: event.pointerId,
    moving: false,
  };
}

function dragged(event) {
  if (!drag || event.pointerId !== drag.pointer) {
    return;
  }
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moving) {
    if (Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) {
      return;
    }
    drag.moving = true;
    $("board").setPointerCapture(event.pointerId);
    drag.piece.classList.add("dragging");
    // Drawn last, so above the other pieces.
    drag.piece.parentNode.appendChild(drag.piece);
    selected = drag.bit;
    $("choices").hidden = true;
    highlight();
  }
  // The diagram's own units: the board may be drawn at any size.
  const scale = drag.piece.ownerSVGElement.getScreenCTM();
  drag.piece.setAttribute("transform", `translate(${dx / scale.a} ${dy / scale.d})`);
  event.preventDefault();
}

function dropped(event) {
  if (!drag || event.pointerId !== drag.pointer) {
    return;
  }
  const { piece, moving } = drag;
  drag = null;
  if (!moving) {
    return;
  }
  dragEnded = true;
  piece.removeAttribute("transform");
  piece.classList.remove("dragging");
  const square = document
    .elementsFromPoint(event.clientX, event.clientY)
    .find((element) => element.matches("rect.square[data-bit]"));
  // Dropped off the board or on no destination: the piece goes back and stays selected.
  if (square) {
    moveTo(Number(square.dataset.bit));
  }
}

function play(move) {
  selected = null;
  $("choices").hidden = true;
  send({ type: "move", id: move.id });
}

// Captures that start and end on the same squares but take different pieces: the user picks.
function chooseRoute(moves) {
  const choices = $("choices");
  const label = document.createElement("p");
  label.textContent = "Which capture?";
  choices.replaceChildren(
    label,
    ...moves.map((move) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = move.long;
      button.addEventListener("click", () => play(move));
      return button;
    }),
  );
  choices.hidden = false;
}

function showInfo(info) {
  if (state && state.lines > 1) {
    showLine(info);
  }
  if (info.line !== 1) {
    return;
  }
  lastInfo = info;
  $("bar-white").style.height = (info.bar * 100).toFixed(1) + "%";
  document.body.dataset.bar = info.bar.toFixed(3);
  $("score").textContent = info.score + " for " + info.side;
  $("depth").textContent = `depth ${info.depth}, ${info.nodes} nodes`;
  $("pv").textContent = info.pv;
}

// One line of a multi-line analysis: lines are listed in their order, each with its score.
// A new depth overwrites the lines one by one, the older ones staying until then, so that the
// list keeps its height and what is below it does not move under the pointer.
function showLine(info) {
  shownLines[info.line - 1] = info;
  shownLines = shownLines.slice(0, state.lines);
  const list = $("lines-shown");
  list.replaceChildren(
    ...shownLines.filter(Boolean).map((line) => {
      const item = document.createElement("li");
      item.textContent = `${line.score}  ${line.pv}`;
      return item;
    }),
  );
  list.hidden = false;
}

// The reviewed game: the evaluation graph and the moves with their marks; a move steps there.
function showReview(review) {
  $("review-graph").innerHTML = review.graph;
  $("review-moves").replaceChildren(
    ...review.moves.map((move) => {
      const item = document.createElement("span");
      item.className = "review-move";
      item.dataset.ply = move.ply;
      if (move.number) {
        item.append(move.number + " ");
      }
      const played = document.createElement("span");
      played.textContent = move.text + (move.mark || "");
      if (move.mark) {
        played.className = MARK_CLASSES[move.mark];
        played.title = move.word;
      }
      const evaluation = document.createElement("span");
      evaluation.className = "eval";
      evaluation.textContent = move.eval;
      item.append(played, evaluation);
      item.addEventListener("click", () => send({ type: "goto", ply: move.ply }));
      return item;
    }),
  );
}

// A click on the evaluation graph steps to the position of the nearest point (one a position,
// the start first).
function graphClicked(event) {
  const line = $("review-graph").querySelector("polyline.eval-line");
  const svg = line?.ownerSVGElement;
  if (!line || !svg || line.points.length === 0) {
    return;
  }
  const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(
    svg.getScreenCTM().inverse(),
  );
  let nearest = 0;
  for (let ply = 1; ply < line.points.length; ply++) {
    if (Math.abs(line.points[ply].x - at.x) < Math.abs(line.points[nearest].x - at.x)) {
      nearest = ply;
    }
  }
  send({ type: "goto", ply: nearest });
}

function showError(message) {
  const error = $("error");
  error.hidden = !message;
  error.textContent = message || "";
}

function download(text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-pdn" }));
  link.download = "rafle.pdn";
  link.click();
  URL.revokeObjectURL(link.href);
}

function settings() {
  const mode = document.querySelector("input[name=mode]:checked").value;
  send({
    type: "settings",
    mode,
    engine: $("engine").value,
    seconds: Number($("seconds").value),
    level: Number($("level").value),
    lines: Number($("lines").value),
    clock:
      $("time-kind").value === "clock"
        ? { minutes: Number($("minutes").value), increment: Number($("increment").value) }
        : null,
  });
}

$("board").addEventListener("click", clicked);
$("board").addEventListener("pointerdown", pressed);
$("board").addEventListener("pointermove", dragged);
$("board").addEventListener("pointerup", dropped);
$("board").addEventListener("pointercancel", dropped);
$("new").addEventListener("click", () => send({ type: "new", variant: $("variant").value }));
$("variant").addEventListener("change", () => send({ type: "new", variant: $("variant").value }));
$("set-fen").addEventListener("click", () =>
  send({ type: "new", variant: $("variant").value, fen: $("fen").value }),
);
$("undo").addEventListener("click", () => send({ type: "undo" }));
$("redo").addEventListener("click", () => send({ type: "redo" }));
$("flip").addEventListener("click", () => send({ type: "flip" }));
$("save").addEventListener("click", () => send({ type: "save_pdn" }));
$("review").addEventListener("click", () => send({ type: "review" }));
$("review-graph").addEventListener("click", graphClicked);
$("cancel-review").addEventListener("click", () => send({ type: "cancel_review" }));
$("load").addEventListener("change", (event) => {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) {
    return;
  }
  if (file.size > MAX_PDN_BYTES) {
    showError(`${file.name}: larger than ${MAX_PDN_BYTES / 1024} KiB`);
    return;
  }
  file.text().then((text) => send({ type: "load_pdn", text }));
});
for (const input of document.querySelectorAll("input[name=mode]")) {
  input.addEventListener("change", settings);
}
$("engine").addEventListener("change", settings);
$("seconds").addEventListener("change", settings);
$("level").addEventListener("change", settings);
$("lines").addEventListener("change", settings);
$("time-kind").addEventListener("change", () => {
  showTimeKind();
  settings();
});
$("minutes").addEventListener("change", settings);
$("increment").addEventListener("change", settings);
setInterval(tickClock, CLOCK_TICK_MS);

connect();
