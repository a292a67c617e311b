//! One finger at a time for Slint, so that no finger's tap is lost (docs/omiga-touch.md).
//!
//! Slint 1.18.1 makes one pointer of all fingers: a second finger down is no press, and a
//! second finger that lifts before the first loses its tap. [`OneFingerAtATime`] takes the
//! windowing layer's touches (each finger with its own id) and gives one pointer's press,
//! moves and release, a whole finger at a time, by the rules of the browser's router
//! (`web/touch.js`, which has to be JavaScript to come before winit's own listeners):
//!
//! - the first finger down is the active one: its press, moves and release pass on;
//! - another finger that lands meanwhile is held: where it landed, where it is, whether
//!   it has lifted;
//! - a held finger lifts while the active one rests (moved no more than [`SLOP`]): its tap
//!   is given at once — the active finger released far outside the window (nothing it
//!   pressed clicks), the held finger's press and release at its own places (so sliding
//!   off before lifting is no tap), the active finger pressed again where it rests;
//! - a held finger lifts while the active one drags: its tap waits until the drag ends;
//! - the active finger lifts: then the taps that waited, in the order their fingers
//!   landed, then the earliest held finger still down becomes active, pressed where it
//!   landed and moved to where it is;
//! - a held finger that is cancelled gives nothing.

/// Logical pixels a finger may move and still rest (Slint's Flickable drag threshold).
pub const SLOP: f32 = 8.0;

/// Where the interrupted active finger is released: outside any window.
pub const AWAY: (f32, f32) = (-100_000.0, -100_000.0);

/// What a finger did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Phase {
    Down,
    Moved,
    Up,
    Cancelled,
}

/// What the one pointer does, in logical pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pointer {
    Pressed(f32, f32),
    Moved(f32, f32),
    Released(f32, f32),
    /// The pointer has left (after a release: no hover stays behind).
    Exited,
}

struct Active {
    id: u64,
    down: (f32, f32),
    at: (f32, f32),
    dragging: bool,
}

struct Held {
    id: u64,
    down: (f32, f32),
    at: (f32, f32),
    up: Option<(f32, f32)>,
}

/// The router: feed it every touch with [`Self::touch`], send Slint what it returns.
#[derive(Default)]
pub struct OneFingerAtATime {
    active: Option<Active>,
    /// In the order the fingers landed.
    held: Vec<Held>,
}

fn far(a: (f32, f32), b: (f32, f32)) -> bool {
    (a.0 - b.0).hypot(a.1 - b.1) > SLOP
}

impl OneFingerAtATime {
    /// One finger's touch; returns the pointer events to give, in order.
    pub fn touch(&mut self, id: u64, phase: Phase, at: (f32, f32)) -> Vec<Pointer> {
        let mut out = Vec::new();
        let is_active = self.active.as_ref().is_some_and(|a| a.id == id);
        match phase {
            Phase::Down if self.active.is_none() => {
                self.active = Some(Active {
                    id,
                    down: at,
                    at,
                    dragging: false,
                });
                out.push(Pointer::Pressed(at.0, at.1));
            }
            Phase::Down if is_active => {}
            Phase::Down => {
                self.held.retain(|h| h.id != id);
                self.held.push(Held {
                    id,
                    down: at,
                    at,
                    up: None,
                });
            }
            Phase::Moved if is_active => {
                if let Some(a) = self.active.as_mut() {
                    a.at = at;
                    a.dragging |= far(a.down, at);
                }
                out.push(Pointer::Moved(at.0, at.1));
            }
            Phase::Moved => {
                if let Some(h) = self.held.iter_mut().find(|h| h.id == id) {
                    h.at = at;
                }
            }
            Phase::Up | Phase::Cancelled if is_active => {
                // A cancel is a release too: Slint's own touch path releases there.
                out.push(Pointer::Released(at.0, at.1));
                out.push(Pointer::Exited);
                self.active = None;
                self.after_active(&mut out);
            }
            Phase::Cancelled => self.held.retain(|h| h.id != id),
            Phase::Up => {
                let Some(i) = self.held.iter().position(|h| h.id == id) else {
                    return out;
                };
                self.held[i].up = Some(at);
                if let Some(a) = self.active.as_ref().filter(|a| !a.dragging) {
                    let resting = a.at;
                    let held = self.held.remove(i);
                    out.push(Pointer::Released(AWAY.0, AWAY.1));
                    out.push(Pointer::Exited);
                    tap(&held, &mut out);
                    out.push(Pointer::Pressed(resting.0, resting.1));
                }
            }
        }
        out
    }

    fn after_active(&mut self, out: &mut Vec<Pointer>) {
        let (lifted, down): (Vec<Held>, Vec<Held>) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|h| h.up.is_some());
        for held in &lifted {
            tap(held, out);
        }
        self.held = down;
        if !self.held.is_empty() {
            let next = self.held.remove(0);
            out.push(Pointer::Pressed(next.down.0, next.down.1));
            if next.at != next.down {
                out.push(Pointer::Moved(next.at.0, next.at.1));
            }
            self.active = Some(Active {
                id: next.id,
                down: next.down,
                at: next.at,
                dragging: far(next.down, next.at),
            });
        }
    }
}

/// A held finger's whole tap, at its own places.
fn tap(held: &Held, out: &mut Vec<Pointer>) {
    let up = held.up.unwrap_or(held.at);
    out.push(Pointer::Pressed(held.down.0, held.down.1));
    if up != held.down {
        out.push(Pointer::Moved(up.0, up.1));
    }
    out.push(Pointer::Released(up.0, up.1));
    out.push(Pointer::Exited);
}

/// Hands the window's touches to Slint one finger at a time, where the windowing layer lets
/// us see them first: the desktop's winit backend (its window event filter). In the browser
/// the page does it (`web/touch.js`: winit's listeners on the canvas come first otherwise);
/// Android's backend has no such hook in Slint 1.18.1, and a window not backed by winit
/// (the tests' testing backend) has none either: there this does nothing.
#[cfg(feature = "ui")]
pub fn route(window: &slint::Window) {
    #[cfg(not(any(target_arch = "wasm32", target_os = "android")))]
    {
        use slint::winit_030::winit::event::{TouchPhase, WindowEvent};
        use slint::winit_030::{EventResult, WinitWindowAccessor};
        let mut router = OneFingerAtATime::default();
        window.on_winit_window_event(move |window, event| {
            let WindowEvent::Touch(touch) = event else {
                return EventResult::Propagate;
            };
            let scale = f64::from(window.scale_factor());
            let at = (
                (touch.location.x / scale) as f32,
                (touch.location.y / scale) as f32,
            );
            let phase = match touch.phase {
                TouchPhase::Started => Phase::Down,
                TouchPhase::Moved => Phase::Moved,
                TouchPhase::Ended => Phase::Up,
                TouchPhase::Cancelled => Phase::Cancelled,
            };
            for pointer in router.touch(touch.id, phase, at) {
                if let Err(e) = window.dispatch_event_with_result(to_slint(pointer)) {
                    crate::note!("a touch did not reach the window: {e}");
                }
            }
            EventResult::PreventDefault
        });
    }
    #[cfg(any(target_arch = "wasm32", target_os = "android"))]
    let _ = window;
}

/// The pointer event as Slint's window takes it (logical pixels, the left button).
#[cfg(feature = "ui")]
pub fn to_slint(pointer: Pointer) -> slint::platform::WindowEvent {
    use slint::platform::{PointerEventButton, WindowEvent};
    use slint::LogicalPosition;
    match pointer {
        Pointer::Pressed(x, y) => WindowEvent::PointerPressed {
            position: LogicalPosition::new(x, y),
            button: PointerEventButton::Left,
        },
        Pointer::Moved(x, y) => WindowEvent::PointerMoved {
            position: LogicalPosition::new(x, y),
        },
        Pointer::Released(x, y) => WindowEvent::PointerReleased {
            position: LogicalPosition::new(x, y),
            button: PointerEventButton::Left,
        },
        Pointer::Exited => WindowEvent::PointerExited,
    }
}

#[cfg(test)]
mod tests {
    use super::Phase::{Cancelled, Down, Up};
    use super::Pointer::{Exited, Pressed, Released};
    use super::*;

    const A: (f32, f32) = (10.0, 10.0);
    const B: (f32, f32) = (200.0, 300.0);
    const C: (f32, f32) = (100.0, 500.0);

    /// Feeds the touches, returns every pointer event.
    fn run(touches: &[(u64, Phase, (f32, f32))]) -> Vec<Pointer> {
        let mut r = OneFingerAtATime::default();
        touches
            .iter()
            .flat_map(|&(id, phase, at)| r.touch(id, phase, at))
            .collect()
    }

    /// The taps a simple button model sees: a press and a release at the same place.
    fn taps(events: &[Pointer]) -> Vec<(f32, f32)> {
        let mut pressed = None;
        let mut out = Vec::new();
        for e in events {
            match *e {
                Pressed(x, y) => pressed = Some((x, y)),
                Released(x, y) if pressed.is_some_and(|p| !far(p, (x, y))) => {
                    out.push((x, y));
                    pressed = None;
                }
                Released(..) => pressed = None,
                _ => {}
            }
        }
        out
    }

    #[test]
    fn one_finger_passes_through() {
        let e = run(&[
            (1, Down, A),
            (1, Phase::Moved, (50.0, 10.0)),
            (1, Up, (50.0, 10.0)),
        ]);
        assert_eq!(
            e,
            vec![
                Pressed(10.0, 10.0),
                Pointer::Moved(50.0, 10.0),
                Released(50.0, 10.0),
                Exited
            ]
        );
    }

    #[test]
    fn second_down_lifting_first_taps_at_once_and_the_first_still_taps() {
        let e = run(&[(1, Down, A), (2, Down, B), (2, Up, B)]);
        assert_eq!(
            taps(&e),
            vec![B],
            "the second finger's tap comes at its own lift"
        );
        let e = run(&[(1, Down, A), (2, Down, B), (2, Up, B), (1, Up, A)]);
        assert_eq!(taps(&e), vec![B, A]);
    }

    #[test]
    fn first_down_lifting_first_hands_over_to_the_second() {
        let e = run(&[(1, Down, A), (2, Down, B), (1, Up, A)]);
        assert_eq!(taps(&e), vec![A]);
        assert_eq!(
            e.last(),
            Some(&Pressed(B.0, B.1)),
            "the second finger is pressed where it landed"
        );
        let e = run(&[(1, Down, A), (2, Down, B), (1, Up, A), (2, Up, B)]);
        assert_eq!(taps(&e), vec![A, B]);
    }

    #[test]
    fn three_fingers_each_tap_once_in_the_order_they_lift() {
        let e = run(&[
            (1, Down, A),
            (2, Down, B),
            (3, Down, C),
            (3, Up, C),
            (2, Up, B),
            (1, Up, A),
        ]);
        assert_eq!(taps(&e), vec![C, B, A]);
        let e = run(&[
            (1, Down, A),
            (2, Down, B),
            (3, Down, C),
            (1, Up, A),
            (3, Up, C),
            (2, Up, B),
        ]);
        assert_eq!(taps(&e), vec![A, C, B]);
    }

    #[test]
    fn a_held_finger_sliding_off_is_no_tap() {
        let off = (B.0, B.1 + 100.0);
        let e = run(&[
            (1, Down, A),
            (2, Down, B),
            (2, Phase::Moved, off),
            (2, Up, off),
            (1, Up, A),
        ]);
        assert_eq!(taps(&e), vec![A]);
        assert!(
            e.contains(&Released(off.0, off.1)),
            "its release is where it lifted: {e:?}"
        );
    }

    #[test]
    fn a_drag_is_not_cut_and_the_tap_waits_for_its_end() {
        let far_off = (A.0, A.1 + 40.0);
        let e = run(&[
            (1, Down, A),
            (1, Phase::Moved, far_off),
            (2, Down, B),
            (2, Up, B),
        ]);
        assert!(
            taps(&e).is_empty() && !e.contains(&Released(AWAY.0, AWAY.1)),
            "{e:?}"
        );
        let e = run(&[
            (1, Down, A),
            (1, Phase::Moved, far_off),
            (2, Down, B),
            (2, Up, B),
            (1, Up, far_off),
        ]);
        // The drag ends where it ends (no tap of its own), then the waiting tap.
        assert_eq!(taps(&e), vec![B]);
        assert_eq!(
            &e[e.len() - 5..e.len() - 3],
            &[Released(far_off.0, far_off.1), Exited]
        );
    }

    #[test]
    fn the_interrupted_finger_clicks_nothing_then() {
        let e = run(&[(1, Down, A), (2, Down, B), (2, Up, B)]);
        assert_eq!(
            &e[..3],
            &[Pressed(A.0, A.1), Released(AWAY.0, AWAY.1), Exited]
        );
    }

    #[test]
    fn a_cancelled_held_finger_gives_nothing() {
        let e = run(&[(1, Down, A), (2, Down, B), (2, Cancelled, B), (1, Up, A)]);
        assert_eq!(taps(&e), vec![A]);
        assert!(!e.contains(&Pressed(B.0, B.1)));
    }

    #[test]
    fn unknown_fingers_are_ignored() {
        assert!(run(&[(7, Up, A), (7, Phase::Moved, A), (7, Cancelled, A)]).is_empty());
    }
}
