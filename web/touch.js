// Every finger's tap reaches what it touched (issue 30, docs/omiga-touch.md).
//
// Slint 1.18.1 makes one pointer of all fingers: a second finger down is no press, and when
// it lifts before the first, its tap is lost. This module stands between the page's touch
// pointers and the canvas's listeners (winit's, which hand them to Slint): it listens on
// the window in the capture phase, before the canvas sees anything, and lets the app see
// one finger at a time — always a whole press, moves and release, so Slint never sees two.
//
// - The first finger down is *active*: its events pass through untouched.
// - Another finger down while one is active is *held*: the canvas does not see it; where
//   it landed, where it is and whether it has lifted are kept.
// - A held finger lifts while the active one still rests (has not moved more than 8 px,
//   Slint's own drag threshold): its tap is given at once. The active finger is cancelled
//   away from everything (a release far off the window, so nothing it pressed clicks), the
//   held finger's press and release are played at its own places (so sliding off before
//   lifting is no tap, as alone), and the active finger is pressed again where it is. Its
//   own release later clicks what it rests on, as it would have alone. A long press it was
//   making starts again from that moment.
// - A held finger lifts while the active one drags (a scroll): its tap waits until the
//   drag ends, so a scroll is never cut.
// - The active finger lifts (or is cancelled): the app sees it, then the waiting taps in
//   the order their fingers landed, then the earliest held finger still down becomes
//   active, pressed where it landed (and moved to where it is now).
// - A held finger the browser cancels gives no tap.
// Mouse and pen pass through untouched. The events this module plays are untrusted
// (`isTrusted` false): it lets them through and never routes them again.
//
// The screen-reader layer (web/a11y, `layer`) lies over the canvas, and its elements take
// pointers, so that a finger exploring the screen with TalkBack or VoiceOver finds each
// element's name where it is drawn (issue 41, docs/accessibility.md). Every pointer (and
// wheel) event that lands on the layer is therefore taken before anything sees it and
// given to the canvas instead, as if the layer were not there: "passes through" above
// means that. The click a browser then sends to the layer's element would make the
// element act a second time; so would VoiceOver's double tap, which is a touch at the
// element's centre (reaching the app through the canvas) and then a click on the element
// (WebKit's AccessibilityObject::press, phetsims/scenery#1094). A click on the layer that
// comes within CLICK_AFTER_UP ms of a pointer's release the app was given is that same
// press, and is dropped. TalkBack's double tap is a click on the element alone (Chromium's
// OnNativeClickAction), a key's is Enter or Space on it: each acts once, in the layer.
//
// `window.hotseatTouchLog`, when a test sets it to an array, gets one entry per finger
// lift: [pointerId, how, ms from the lift reaching the page to the app having taken its
// release] where how is "alone" (passed through), "at-once" (a held tap given at once),
// "waited" (a held tap given when the active finger lifted) or "none" (cancelled).

const SLOP = 8; // px: a finger that moved further is dragging (Slint: DISTANCE_THRESHOLD)
const AWAY = -100000; // px: where the active finger is released when interrupted
const CLICK_AFTER_UP = 500; // ms: VoiceOver's click follows its touch within this (PhET saw 80)

export function routeTouches(canvas, layer) {
  let active = null; // {id, down: [x, y], at: [x, y], dragging}
  const held = new Map(); // id → {down, at, up: [x, y] | null, lifted: ms | null}
  let lastUp = -Infinity; // when the app was last given a pointer's release

  const onLayer = (e) => layer && e.target instanceof Node && e.target !== layer && layer.contains(e.target);
  // The same event, for the canvas. winit reads the place from offsetX/Y (computed
  // against the canvas, the new target) and a move's places from its coalesced events.
  const forward = (e) => {
    const init = {
      pointerId: e.pointerId, pointerType: e.pointerType, isPrimary: e.isPrimary,
      clientX: e.clientX, clientY: e.clientY, screenX: e.screenX, screenY: e.screenY,
      button: e.button, buttons: e.buttons, pressure: e.pressure,
      tangentialPressure: e.tangentialPressure, tiltX: e.tiltX, tiltY: e.tiltY, twist: e.twist,
      width: e.width, height: e.height, altKey: e.altKey, ctrlKey: e.ctrlKey,
      metaKey: e.metaKey, shiftKey: e.shiftKey, bubbles: true, cancelable: true, composed: true,
    };
    if (e.type === "pointermove") {
      const moves = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
      init.coalescedEvents = (moves.length ? moves : [e]).map((m) =>
        new PointerEvent("pointermove", { ...init, clientX: m.clientX, clientY: m.clientY }));
    }
    canvas.dispatchEvent(new PointerEvent(e.type, init));
  };

  const log = (entry) => {
    if (Array.isArray(window.hotseatTouchLog)) window.hotseatTouchLog.push(entry);
  };
  const place = (e) => [e.clientX, e.clientY];
  const play = (type, id, [x, y]) => {
    const init = {
      pointerId: id, pointerType: "touch", isPrimary: false, clientX: x, clientY: y,
      bubbles: true, cancelable: true, composed: true,
      button: type === "pointermove" ? -1 : 0,
      buttons: type === "pointerup" || type === "pointercancel" ? 0 : 1,
      pressure: type === "pointerup" || type === "pointercancel" ? 0 : 0.5,
      width: 1, height: 1,
    };
    if (type === "pointermove") init.coalescedEvents = [new PointerEvent(type, init)];
    canvas.dispatchEvent(new PointerEvent(type, init));
  };
  // A held finger's whole tap, at its own places.
  const tap = (id, finger) => {
    play("pointerdown", id, finger.down);
    if (finger.up[0] !== finger.down[0] || finger.up[1] !== finger.down[1]) {
      play("pointermove", id, finger.up);
    }
    play("pointerup", id, finger.up);
  };
  // The earliest held finger still down becomes the active one.
  const promote = () => {
    for (const [id, finger] of held) {
      if (finger.up) continue;
      held.delete(id);
      active = { id, down: finger.down, at: finger.at, dragging: false };
      play("pointerdown", id, finger.down);
      if (finger.at[0] !== finger.down[0] || finger.at[1] !== finger.down[1]) {
        play("pointermove", id, finger.at);
        active.dragging = Math.hypot(finger.at[0] - finger.down[0], finger.at[1] - finger.down[1]) > SLOP;
      }
      return;
    }
  };
  // After the active finger has gone: the taps that waited, then the next finger.
  const afterActive = () => {
    active = null;
    for (const [id, finger] of [...held]) {
      if (!finger.up) continue;
      held.delete(id);
      tap(id, finger);
      log([id, "waited", performance.now() - finger.lifted]);
    }
    promote();
  };

  const capture = (e) => {
    if (!e.isTrusted) return;
    const routed = onLayer(e);
    if (routed) {
      // Nothing under the canvas's place sees it: the canvas gets it (`pass`) or, for a
      // held finger, nothing does. Not the layer's element either (no focus, no press).
      e.stopPropagation();
      e.preventDefault();
    }
    const pass = () => { if (routed) forward(e); };
    if (e.type === "pointerup") lastUp = performance.now();
    if (e.pointerType !== "touch") {
      pass();
      return;
    }
    const id = e.pointerId;
    switch (e.type) {
      case "pointerdown":
        if (active === null || active.id === id) {
          active = { id, down: place(e), at: place(e), dragging: false };
          pass();
          return;
        }
        held.set(id, { down: place(e), at: place(e), up: null, lifted: null });
        break;
      case "pointermove":
        if (active && active.id === id) {
          active.at = place(e);
          const [dx, dy] = [active.at[0] - active.down[0], active.at[1] - active.down[1]];
          if (Math.hypot(dx, dy) > SLOP) active.dragging = true;
          pass();
          return;
        }
        if (!held.has(id)) {
          pass();
          return;
        }
        held.get(id).at = place(e);
        break;
      case "pointerup":
      case "pointercancel": {
        if (active && active.id === id) {
          // The app sees it (the canvas's own listener), then the bubble listener below
          // gives what waited (called here when it was routed: it bubbles no further).
          active.leaving = performance.now();
          if (routed) {
            forward(e);
            bubble(e);
          }
          return;
        }
        const finger = held.get(id);
        if (!finger) {
          pass();
          return;
        }
        if (e.type === "pointercancel") {
          held.delete(id);
          log([id, "none", 0]);
          break;
        }
        finger.up = place(e);
        finger.lifted = performance.now();
        if (active && !active.dragging) {
          held.delete(id);
          const resting = active;
          play("pointercancel", resting.id, [AWAY, AWAY]);
          tap(id, finger);
          play("pointerdown", resting.id, resting.at);
          log([id, "at-once", performance.now() - finger.lifted]);
        }
        break;
      }
      default:
        pass();
        return;
    }
    // A held finger: the canvas (and winit) never see its own events.
    e.stopPropagation();
    e.preventDefault();
  };
  // The active finger's release has reached the app by the time it bubbles up here.
  const bubble = (e) => {
    if (!e.isTrusted || e.pointerType !== "touch" || !active || active.id !== e.pointerId) return;
    const lifted = active.leaving;
    log([e.pointerId, e.type === "pointerup" ? "alone" : "none", performance.now() - lifted]);
    afterActive();
  };

  for (const type of ["pointerdown", "pointermove", "pointerup", "pointercancel"]) {
    window.addEventListener(type, capture, { capture: true, passive: false });
  }
  window.addEventListener("pointerup", bubble);
  window.addEventListener("pointercancel", bubble);

  // A mouse's wheel over the layer scrolls what the canvas draws there.
  window.addEventListener("wheel", (e) => {
    if (!e.isTrusted || !onLayer(e)) return;
    e.stopPropagation();
    e.preventDefault();
    canvas.dispatchEvent(new WheelEvent("wheel", {
      deltaX: e.deltaX, deltaY: e.deltaY, deltaZ: e.deltaZ, deltaMode: e.deltaMode,
      clientX: e.clientX, clientY: e.clientY, screenX: e.screenX, screenY: e.screenY,
      altKey: e.altKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, shiftKey: e.shiftKey,
      bubbles: true, cancelable: true, composed: true,
    }));
  }, { capture: true, passive: false });
  // The canvas is not left when a mouse moves onto the layer (winit would take the
  // pointer for gone: no hover), nor entered again when it comes back.
  for (const type of ["pointerout", "pointerover", "pointerleave", "pointerenter"]) {
    window.addEventListener(type, (e) => {
      if (e.isTrusted && (onLayer(e) || (e.target === canvas && e.relatedTarget instanceof Node
          && layer && layer.contains(e.relatedTarget)))) e.stopPropagation();
    }, { capture: true });
  }
  // The click after a press the app was given is that press: dropped (see the top).
  window.addEventListener("click", (e) => {
    if (onLayer(e) && performance.now() - lastUp < CLICK_AFTER_UP) {
      e.stopImmediatePropagation();
      e.preventDefault();
    }
  }, { capture: true });
}
