//! A pairing text as a QR code on the app's own screen (issue 31): the modules of
//! `net::qr` painted into a pixel buffer, so no image crate and no browser canvas is needed.
//!
//! Ink (`#2B2622`, STYLE.md's text colour) on pure white, not on the table's paper: a
//! camera needs all the contrast there is, and a QR reader expects dark on light. A quiet
//! zone of 4 modules (the QR standard's) is part of the image, so the code reads wherever
//! the screen puts it. Each module is [`PIXELS_PER_MODULE`] pixels: show the image with
//! `image-rendering: pixelated` (or at a whole multiple of its size) and the edges stay sharp.

use crate::net::qr::qr_modules;
use slint::{Image, Rgba8Pixel, SharedPixelBuffer};

/// Pixels a module in the buffer: a version 7 code (45 modules + the quiet zone) is 424 ×
/// 424, sharp at the sizes a phone shows it.
pub const PIXELS_PER_MODULE: usize = 8;
/// The quiet zone around the code, in modules.
pub const QUIET_ZONE: usize = 4;
/// A dark module: STYLE.md's ink.
const DARK: Rgba8Pixel = Rgba8Pixel {
    r: 0x2B,
    g: 0x26,
    b: 0x22,
    a: 0xFF,
};
/// A light module and the quiet zone.
const LIGHT: Rgba8Pixel = Rgba8Pixel {
    r: 0xFF,
    g: 0xFF,
    b: 0xFF,
    a: 0xFF,
};

/// The QR code of `text` as an image for an `Image` element; `None` if the text is too
/// long for a QR code (a pairing text never is).
pub fn qr_image(text: &str) -> Option<Image> {
    qr_pixels(text, PIXELS_PER_MODULE).map(Image::from_rgba8)
}

/// The QR code of `text` with its quiet zone, `scale` pixels a module.
pub fn qr_pixels(text: &str, scale: usize) -> Option<SharedPixelBuffer<Rgba8Pixel>> {
    let (side, dark) = qr_modules(text).ok()?;
    let scale = scale.max(1);
    let modules = side + 2 * QUIET_ZONE;
    let px = modules * scale;
    let edge = u32::try_from(px).ok()?;
    let mut buffer = SharedPixelBuffer::<Rgba8Pixel>::new(edge, edge);
    for (i, pixel) in buffer.make_mut_slice().iter_mut().enumerate() {
        let (x, y) = ((i % px) / scale, (i / px) / scale);
        // Outside the code (the quiet zone) the subtraction wraps to a huge value.
        let (mx, my) = (x.wrapping_sub(QUIET_ZONE), y.wrapping_sub(QUIET_ZONE));
        let is_dark = mx < side && my < side && dark.get(my * side + mx).copied().unwrap_or(false);
        *pixel = if is_dark { DARK } else { LIGHT };
    }
    Some(buffer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::pairing::{encode, PairingKind};
    use crate::net::qr::{out_of_focus, read_qr};
    use rand::SeedableRng;

    const ANSWER: &str = include_str!("../net/pairing/fixtures/chromium-mdns-answer.sdp");

    #[test]
    fn the_painted_code_reads_back_through_a_blurry_noisy_camera() {
        let answer = encode(PairingKind::Answer, ANSWER, None).unwrap();
        let image = qr_image(&answer).unwrap();
        assert_eq!(image.size().width, (45 + 8) * 8);
        let pixels = qr_pixels(&answer, 1).unwrap();
        let (w, h) = (pixels.width() as usize, pixels.height() as usize);
        let src = pixels.as_slice();
        assert!(
            src[0] == LIGHT && src.contains(&DARK),
            "dark on white, quiet zone first"
        );
        // ×4, to grey (Rec. 601 luma), a 3×3 blur, noise.
        let (sw, sh) = (w * 4, h * 4);
        let grey: Vec<u8> = (0..sw * sh)
            .map(|i| {
                let p = src[(i / sw / 4) * w + (i % sw) / 4];
                ((299 * u32::from(p.r) + 587 * u32::from(p.g) + 114 * u32::from(p.b)) / 1000) as u8
            })
            .collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
        let seen = out_of_focus(&grey, sw, sh, 30, &mut rng);
        assert_eq!(read_qr(sw, sh, &seen).as_deref(), Some(answer.as_str()));
    }

    #[test]
    fn too_long_a_text_has_no_image() {
        assert!(qr_image(&"9".repeat(8000)).is_none());
    }
}
