//! The pairing text as a QR code and back (issue 31): the module matrix the screen paints
//! (`ui::qr` draws it; nothing here knows of pixels on screen) and the reader of camera
//! frames. UI-free, so the browser build and the native tests share it.
//!
//! Error correction M (15% of the code may be lost): a phone's camera sees the other
//! phone's screen with glare and moiré, and M keeps the usual pairing text (~170
//! characters, two mDNS candidates) at version 7, 45×45 modules; the longest a browser
//! makes in practice (six candidates) is version 10. L would save one version and lose half
//! the margin.

use super::pairing::PairingError;
use qrcode::{Color, EcLevel, QrCode};

/// The error correction level of every pairing code (see the module's comment).
pub const EC_LEVEL: EcLevel = EcLevel::M;
/// The largest camera frame [`read_qr`] looks at (in pixels): a 4K frame is 8.3 M; more
/// is not a camera's, and would only cost memory.
pub const MAX_FRAME_PIXELS: usize = 4096 * 4096;

/// The QR code of `text`: its side in modules, and whether each module is dark, row by row
/// (no quiet zone: the painter adds it).
pub fn qr_modules(text: &str) -> Result<(usize, Vec<bool>), PairingError> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EC_LEVEL).map_err(|_| {
        PairingError::TooBigForQr {
            chars: text.chars().count(),
        }
    })?;
    let side = code.width();
    let dark = code
        .into_colors()
        .into_iter()
        .map(|c| c == Color::Dark)
        .collect();
    Ok((side, dark))
}

/// The QR version (1 to 40) `text` takes, for the docs and tests.
pub fn qr_version(text: &str) -> Result<usize, PairingError> {
    let (side, _) = qr_modules(text)?;
    Ok((side - 17) / 4)
}

/// The pairing text in a greyscale camera frame (`grey`: `width × height` bytes, row by
/// row, 0 black): the first QR code in it that reads as text starting with `HS` (another
/// QR code in view, a poster's link, is passed over). Mirrored frames (a front camera) are
/// read too. `None` when there is none, or the frame is not what it says it is.
pub fn read_qr(width: usize, height: usize, grey: &[u8]) -> Option<String> {
    let pixels = width.checked_mul(height)?;
    if pixels == 0 || pixels > MAX_FRAME_PIXELS || grey.len() < pixels {
        return None;
    }
    let at = |x: usize, y: usize| grey.get(y * width + x).copied().unwrap_or(255);
    find(width, height, at).or_else(|| find(width, height, |x, y| at(width - 1 - x, y)))
}

/// The first Hotseat code rqrr finds in the image `luma` describes.
fn find(width: usize, height: usize, luma: impl FnMut(usize, usize) -> u8) -> Option<String> {
    // rqrr is a third party's parser of what a camera sees: a frame that trips a bug in it
    // must cost one frame, not the page (on the desktop, where panics unwind; the browser
    // build aborts on a panic whatever is done here).
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(width, height, luma);
        image.detect_grids().into_iter().find_map(|grid| {
            let (_, text) = grid.decode().ok()?;
            let text = text.trim();
            let hotseat = text.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("HS"));
            hotseat.then(|| text.to_string())
        })
    }))
    .ok()
    .flatten()
}

/// A grey image `w`×`h` as a camera sees it slightly out of focus: a 3×3 box blur and a
/// sensor's grain of up to ±`grain`, the border left as it was. For the tests here and
/// in ui/qr.rs that read a code through a camera.
#[cfg(test)]
pub(crate) fn out_of_focus(
    img: &[u8],
    w: usize,
    h: usize,
    grain: i32,
    rng: &mut impl rand::Rng,
) -> Vec<u8> {
    let mut out = img.to_vec();
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let mut sum = 0i32;
            for dy in 0..3 {
                for dx in 0..3 {
                    sum += i32::from(img[(y + dy - 1) * w + x + dx - 1]);
                }
            }
            out[y * w + x] = (sum / 9 + rng.random_range(-grain..=grain)).clamp(0, 255) as u8;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::pairing::{decode, encode, PairingKind};
    use rand::{Rng, SeedableRng};

    const OFFER: &str = include_str!("pairing/fixtures/chromium-mdns-offer.sdp");
    const IP_OFFER: &str = include_str!("pairing/fixtures/chromium-ip-offer.sdp");

    /// A camera's view of the code: `scale` pixels a module, a quiet zone of 4 modules and
    /// a margin of grey table around it, then a box blur and noise (a screen photographed
    /// slightly out of focus, a sensor's grain), never pure black or white.
    fn photo(text: &str, scale: usize, rng: &mut impl Rng) -> (usize, usize, Vec<u8>) {
        let (side, dark) = qr_modules(text).unwrap();
        let margin = 30;
        let w = (side + 8) * scale + 2 * margin;
        let mut img = vec![120u8; w * w];
        for y in 0..(side + 8) * scale {
            for x in 0..(side + 8) * scale {
                let (mx, my) = ((x / scale).wrapping_sub(4), (y / scale).wrapping_sub(4));
                let is_dark = mx < side && my < side && dark[my * side + mx];
                img[(y + margin) * w + x + margin] = if is_dark { 30 } else { 225 };
            }
        }
        let out = out_of_focus(&img, w, w, 20, rng);
        (w, w, out)
    }

    #[test]
    fn the_usual_pairing_text_is_a_version_7_code() {
        let offer = encode(PairingKind::Offer, OFFER, Some("1234")).unwrap();
        assert_eq!(qr_version(&offer), Ok(7));
        let (side, dark) = qr_modules(&offer).unwrap();
        assert_eq!((side, dark.len()), (45, 45 * 45));
        // The plain-address offer (IPv4 and IPv6) is shorter: version 7 too.
        let ip = encode(PairingKind::Offer, IP_OFFER, Some("1234")).unwrap();
        assert_eq!(qr_version(&ip), Ok(7));
        // Six candidates, all IPv6: still within version 10.
        let mut six = String::new();
        for line in IP_OFFER.split_inclusive('\n') {
            if line.starts_with("a=candidate") {
                continue;
            }
            if line.starts_with("a=ice-ufrag") {
                for i in 0..6 {
                    six.push_str(&format!(
                        "a=candidate:{i} 1 udp 5 2001:db8::{i}:1 {} typ host\r\n",
                        5000 + i
                    ));
                }
            }
            six.push_str(line);
        }
        let six = encode(PairingKind::Offer, &six, Some("1234")).unwrap();
        assert_eq!((six.len(), qr_version(&six)), (297, Ok(10)));
        // MAX_QR_CHARS is exactly what version 10 holds at M: one more is version 11.
        let most = format!("HS2O{}", "A".repeat(crate::net::pairing::MAX_QR_CHARS - 4));
        assert_eq!(qr_version(&most), Ok(10));
        assert_eq!(qr_version(&format!("{most}A")), Ok(11));
        assert_eq!(
            qr_modules(&"A".repeat(5000)),
            Err(PairingError::TooBigForQr { chars: 5000 })
        );
    }

    #[test]
    fn a_blurred_noisy_photo_reads_back() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let offer = encode(PairingKind::Offer, OFFER, Some("1234")).unwrap();
        for scale in [5, 6, 8] {
            let (w, h, grey) = photo(&offer, scale, &mut rng);
            assert_eq!(
                read_qr(w, h, &grey).as_deref(),
                Some(offer.as_str()),
                "×{scale}"
            );
        }
        let (w, h, grey) = photo(&offer, 6, &mut rng);
        // Turned a quarter (x, y) -> (h-1-y, x), and upside down.
        let turned: Vec<u8> = (0..w * h)
            .map(|i| {
                let (x, y) = (i % h, i / h);
                grey[(h - 1 - x) * w + y]
            })
            .collect();
        assert_eq!(read_qr(h, w, &turned).as_deref(), Some(offer.as_str()));
        let upside: Vec<u8> = grey.iter().rev().copied().collect();
        assert_eq!(read_qr(w, h, &upside).as_deref(), Some(offer.as_str()));
        // Mirrored, as a front camera shows it.
        let mirrored: Vec<u8> = (0..w * h)
            .map(|i| grey[(i / w) * w + (w - 1 - i % w)])
            .collect();
        assert_eq!(read_qr(w, h, &mirrored).as_deref(), Some(offer.as_str()));
        // And what it read is the pairing.
        let back = decode(&read_qr(w, h, &grey).unwrap()).unwrap();
        assert_eq!(back.join_code.as_deref(), Some("1234"));
    }

    #[test]
    fn other_codes_and_bad_frames_read_as_nothing() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
        let (w, h, grey) = photo("HTTPS://EXAMPLE.COM/", 4, &mut rng);
        assert_eq!(read_qr(w, h, &grey), None);
        assert_eq!(
            read_qr(w, h, &grey[..10]),
            None,
            "a buffer shorter than the frame"
        );
        assert_eq!(read_qr(0, 0, &[]), None);
        assert_eq!(read_qr(usize::MAX, 2, &grey), None);
        for _ in 0..20 {
            let (w, h) = (rng.random_range(1..200), rng.random_range(1..200));
            let noise: Vec<u8> = (0..w * h).map(|_| rng.random()).collect();
            assert_eq!(read_qr(w, h, &noise), None);
        }
    }
}
