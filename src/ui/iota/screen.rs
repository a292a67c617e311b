//! The IOTA table as the generic table drives it (`play::GameScreen`): the view drawn into
//! the Slint models (grid, hands, staged cards, the score preview) and the hooks of a
//! hand-off and of an app opponent's turn.

use super::words::{card_words, cell_words};
use super::{passed, IotaTable, LastTurn, Note};
use crate::games::iota::{Action, Card, Iota, IotaEvent, IotaView};
use crate::session::Match;
use crate::ui::play::{self, GameScreen};
use crate::ui::texts::{self, IotaText};
use crate::ui::{chrome, rows};
use crate::ui::{AppWindow, IotaBridge, IotaCard, IotaCell, IotaHandCard, IotaResult, IotaSeat};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::collections::BTreeSet;

fn ui_card(card: Card, language: &str) -> IotaCard {
    use IotaText::{LetterBlue, LetterGreen, LetterRed, LetterYellow};
    let letters = [LetterRed, LetterGreen, LetterBlue, LetterYellow];
    IotaCard {
        wild: card.is_wild(),
        colour: i32::from(card.colour()),
        shape: i32::from(card.shape()),
        number: i32::from(card.number()),
        letter: letters
            .get(usize::from(card.colour()))
            .map(|t| texts::say(t, language))
            .unwrap_or_default()
            .into(),
    }
}

impl GameScreen for IotaTable {
    type Game = Iota;
    const TITLE: &'static str = "IOTA";

    fn game_match(&self) -> &Match<Iota> {
        &self.session
    }

    fn game_match_mut(&mut self) -> &mut Match<Iota> {
        &mut self.session
    }

    fn cover_hint(&self, language: &str) -> String {
        texts::say(&IotaText::CoverHint, language)
    }

    fn draw(&self, app: &AppWindow, language: &str) {
        // The last thing that happened, said again in the language now chosen.
        if let Some(note) = &self.note {
            chrome::show_message(app, &note.say(language), false);
        }
        let bridge = app.global::<IotaBridge>();
        let game = self.session.public();
        let hand = self.hand();

        let board = self.board();
        let legal = self.legal_cells();
        let mut cells = Vec::new();
        let words_of = |card: Card| card_words(card, language);
        let (min_x, min_y) = (board.min.x, board.min.y);
        for &(cell, slot) in &board.cells {
            let Some((card, is_staged)) = slot else {
                continue;
            };
            let what = if is_staged {
                texts::say(
                    &IotaText::Staged {
                        card: words_of(card),
                    },
                    language,
                )
            } else {
                words_of(card)
            };
            let swappable = !is_staged && self.can_swap(cell);
            let what = if swappable {
                texts::say(&IotaText::MayReplace { card: what }, language)
            } else {
                what
            };
            cells.push(IotaCell {
                x: cell.x,
                y: cell.y,
                col: cell.x - min_x,
                row: cell.y - min_y,
                card: ui_card(card, language),
                filled: !is_staged,
                staged: is_staged,
                legal: swappable,
                label: format!("{}: {what}", cell_words(cell, language)).into(),
                answer: false,
            });
        }
        // Then the empty ring, in the same order as `board.cells` (taps find them by index).
        for &(cell, slot) in &board.cells {
            if slot.is_some() {
                continue;
            }
            let (x, y) = (cell.x, cell.y);
            let is_legal = legal.contains(&(x, y));
            let what = texts::say(
                if is_legal {
                    &IotaText::EmptyLegal
                } else {
                    &IotaText::Empty
                },
                language,
            );
            cells.push(IotaCell {
                x,
                y,
                col: x - min_x,
                row: y - min_y,
                card: ui_card(Card::WILD, language),
                filled: false,
                staged: false,
                legal: is_legal,
                label: format!("{}: {what}", cell_words(cell, language)).into(),
                answer: false,
            });
        }
        bridge.set_cols(board.max.x - min_x + 1);
        bridge.set_rows(board.max.y - min_y + 1);
        rows::update_rows(bridge.get_cells(), cells, |m| bridge.set_cells(m));

        // The hand: only the seat whose gate is open.
        let hand_rows: Vec<IotaHandCard> = hand
            .iter()
            .enumerate()
            .map(|(i, card)| {
                let is_staged = self.staged.iter().any(|(h, _)| *h == i);
                let returning = self.trade.as_ref().is_some_and(|t| t.contains(&i));
                let is_selected = self.selected == Some(i) || returning;
                let label = texts::say(
                    &IotaText::YourCard {
                        n: i + 1,
                        card: card_words(*card, language),
                    },
                    language,
                );
                let label = if returning {
                    texts::say(&IotaText::ToReturn { label }, language)
                } else if self.trade.is_some() {
                    texts::say(&IotaText::ToKeep { label }, language)
                } else if is_staged {
                    texts::say(&IotaText::OnTheBoard { label }, language)
                } else if is_selected {
                    texts::say(&IotaText::Selected { label }, language)
                } else {
                    label
                };
                IotaHandCard {
                    card: ui_card(*card, language),
                    selected: is_selected,
                    returning,
                    staged: is_staged,
                    label: label.into(),
                    present: true,
                }
            })
            // A slot for each card a hand may hold, the empty ones not present: the
            // hand's slots are made once and keep their accessibility ids for the whole
            // game (ui/iota/screen.slint `HandRow`), under the cover too.
            .chain(std::iter::repeat_with(IotaHandCard::default))
            .take(hand.len().max(crate::games::iota::HAND_SIZE))
            .collect();
        rows::update_rows(bridge.get_hand(), hand_rows, |m| bridge.set_hand(m));
        // The picked card in words, for the focused board to say (access::news): a digit
        // key picks it without moving the focus, so nothing else would be heard.
        let picked = self
            .selected
            .filter(|_| self.trade.is_none())
            .and_then(|i| hand.get(i))
            .map(|card| {
                texts::say(
                    &IotaText::Picked {
                        card: card_words(*card, language),
                    },
                    language,
                )
            })
            .unwrap_or_default();
        bridge.set_picked(picked.into());

        let view_turn = self.session.to_act();
        let scores = &game.scores;
        let sizes = &game.hand_sizes;
        let (last_turns, best_turn) = self.turn_log();
        let seats: Vec<IotaSeat> = self
            .session
            .players()
            .iter()
            .enumerate()
            .map(|(s, p)| {
                let score = scores.get(s).copied().unwrap_or(0);
                let cards = sizes.get(s).copied().unwrap_or(0);
                let on_turn = view_turn.contains(&s);
                let mut label = format!(
                    "{}: {}, {}",
                    p.name,
                    texts::say(&IotaText::Points { n: score }, language),
                    texts::say(&IotaText::Cards { n: cards }, language)
                );
                let last = match last_turns.get(s).copied().flatten() {
                    Some(LastTurn::Scored(n)) => format!("+{n}"),
                    Some(LastTurn::Passed(0)) => texts::say(&IotaText::PassWord, language),
                    Some(LastTurn::Passed(n)) => {
                        texts::say(&IotaText::PassReturned { n }, language)
                    }
                    None => String::new(),
                };
                if !last.is_empty() {
                    label = texts::say(
                        &IotaText::LastTurn {
                            label,
                            last: last.clone(),
                        },
                        language,
                    );
                }
                if on_turn {
                    label = texts::say(&IotaText::OnTurn { label }, language);
                }
                IotaSeat {
                    name: p.name.clone().into(),
                    seat: s as i32,
                    color: i32::from(p.color),
                    score: i32::try_from(score).unwrap_or(i32::MAX),
                    cards: cards as i32,
                    last: last.into(),
                    on_turn,
                    label: label.into(),
                }
            })
            .collect();
        rows::update_rows(bridge.get_seats(), seats, |m| bridge.set_seats(m));
        let pile = game.pile_count;
        bridge.set_pile(pile as i32);
        bridge.set_pile_label(texts::say(&IotaText::DrawPile { n: pile }, language).into());

        let (preview, ok) = self.preview(language);
        bridge.set_preview(preview.into());
        bridge.set_preview_ok(ok);
        let over = game.outcome.is_over();
        let open = self.viewer().is_some() && !over;
        bridge.set_has_staged(open && !self.staged.is_empty());
        bridge.set_can_play(open && !self.staged.is_empty());
        bridge.set_can_pass(open && self.staged.is_empty());
        bridge.set_can_hint(open && self.trade.is_none());
        bridge.set_trading(open && self.trade.is_some());
        let marked = self.trade.as_ref().map_or(0, BTreeSet::len);
        bridge.set_pass_text(
            texts::say(
                &match marked {
                    0 => IotaText::Pass,
                    1 => IotaText::PassReturnOne,
                    n => IotaText::PassReturn { n },
                },
                language,
            )
            .into(),
        );
        bridge.set_trade_hint(
            if self.trade.is_some() {
                texts::say(&IotaText::TradeHint, language)
            } else {
                String::new()
            }
            .into(),
        );

        // The end of the game: the ranking and the best turn.
        bridge.set_over(over);
        let mut ranking: Vec<usize> = (0..self.session.players().len()).collect();
        ranking.sort_by_key(|s| std::cmp::Reverse(scores.get(*s).copied().unwrap_or(0)));
        let results: Vec<IotaResult> = if over {
            ranking
                .iter()
                .map(|&s| {
                    let score = scores.get(s).copied().unwrap_or(0);
                    // Equal scores share a place.
                    let place = 1 + scores.iter().filter(|x| **x > score).count();
                    let player = self.session.players().get(s);
                    let name = player.map(|p| p.name.clone()).unwrap_or_default();
                    IotaResult {
                        place: place as i32,
                        name: name.clone().into(),
                        seat: s as i32,
                        color: player.map_or(0, |p| i32::from(p.color)),
                        score: i32::try_from(score).unwrap_or(i32::MAX),
                        label: format!(
                            "{}. {name}: {}",
                            place,
                            texts::say(&IotaText::Points { n: score }, language)
                        )
                        .into(),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        bridge.set_results(ModelRc::new(VecModel::from(results)));
        bridge.set_best_turn(
            match best_turn {
                Some((seat, points)) if over => {
                    let best = IotaText::BestTurn {
                        name: self.name(seat),
                        points: texts::say(&IotaText::Points { n: points.into() }, language),
                    };
                    texts::say(&best, language)
                }
                _ => String::new(),
            }
            .into(),
        );
        // The board's spoken line reads the preview and the picked card set above.
        crate::ui::access::news(app);
    }

    fn revealed(&mut self) {
        self.clear_selection();
    }

    fn app_played(
        &mut self,
        seat: usize,
        _action: Action,
        event: IotaEvent,
        _before: IotaView,
        language: &str,
    ) -> play::Note {
        let name = self.name(seat);
        // Only what everyone saw: the cards laid and the score, or how many cards went
        // back (never which).
        self.note = Some(match event {
            IotaEvent::Placed { score, cards, .. } => Note::Text(IotaText::Placed {
                name,
                count: cards.len(),
                total: score.total,
            }),
            IotaEvent::Passed { returned_count, .. } => Note::Text(passed(name, returned_count)),
            IotaEvent::Swapped { cell, .. } => Note::TookWild { name, cell },
        });
        self.clear_selection();
        self.note_line(language)
    }
}
