//! Colour-vision deficiency simulation for `hotseat screenshot --cvd`, so that anyone can
//! check that no board needs colour to be read. Machado, Oliveira & Fernandes (2009),
//! "A Physiologically-based Model for Simulation of Color Vision Deficiency", severity 1.0
//! (full dichromacy), applied to linear RGB as the paper prescribes.

use std::str::FromStr;

/// A kind of dichromacy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deficiency {
    /// No L cones (red-weak), about 1 % of men.
    Protanopia,
    /// No M cones (green-weak), the most common, about 1 % of men (6 % counting anomaly).
    Deuteranopia,
    /// No S cones (blue-yellow), rare.
    Tritanopia,
}

impl FromStr for Deficiency {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "protanopia" => Ok(Self::Protanopia),
            "deuteranopia" => Ok(Self::Deuteranopia),
            "tritanopia" => Ok(Self::Tritanopia),
            other => Err(format!(
                "unknown colour-vision deficiency '{other}': protanopia, deuteranopia or tritanopia"
            )),
        }
    }
}

impl Deficiency {
    /// Every kind, for rendering a set of pictures.
    pub const ALL: [Deficiency; 3] = [Self::Deuteranopia, Self::Protanopia, Self::Tritanopia];

    /// The lowercase name used on the command line and in file names.
    pub fn name(self) -> &'static str {
        match self {
            Self::Protanopia => "protanopia",
            Self::Deuteranopia => "deuteranopia",
            Self::Tritanopia => "tritanopia",
        }
    }

    /// Machado 2009, severity 1.0 (rows map linear R, G, B).
    fn matrix(self) -> [[f32; 3]; 3] {
        match self {
            Self::Protanopia => [
                [0.152286, 1.052583, -0.204868],
                [0.114503, 0.786281, 0.099216],
                [-0.003882, -0.048116, 1.051998],
            ],
            Self::Deuteranopia => [
                [0.367322, 0.860646, -0.227968],
                [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881],
            ],
            Self::Tritanopia => [
                [1.255528, -0.076749, -0.178779],
                [-0.078411, 0.930809, 0.147602],
                [0.004733, 0.691367, 0.303900],
            ],
        }
    }

    /// How one sRGB colour looks with this deficiency.
    pub fn simulate(self, rgb: [u8; 3]) -> [u8; 3] {
        let lin = rgb.map(to_linear);
        let m = self.matrix();
        let mut out = [0u8; 3];
        for (o, row) in out.iter_mut().zip(m) {
            *o = to_srgb(row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2]);
        }
        out
    }

    /// Simulates a whole RGB picture in place (3 bytes a pixel).
    pub fn simulate_image(self, pixels: &mut [u8]) {
        for px in pixels.chunks_exact_mut(3) {
            let out = self.simulate([px[0], px[1], px[2]]);
            px.copy_from_slice(&out);
        }
    }
}

fn to_linear(c: u8) -> f32 {
    let c = f32::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn to_srgb(l: f32) -> u8 {
    let l = l.clamp(0.0, 1.0);
    let c = if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    (c * 255.0).round() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(a: [u8; 3], b: [u8; 3]) -> f32 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (f32::from(*x) - f32::from(y)).powi(2))
            .sum::<f32>()
            .sqrt()
    }

    #[test]
    fn greys_stay_grey_for_every_kind() {
        for d in Deficiency::ALL {
            for g in [0u8, 60, 128, 200, 255] {
                let out = d.simulate([g, g, g]);
                assert!(
                    distance(out, [g, g, g]) <= 3.0,
                    "{d:?} moved grey {g} to {out:?}"
                );
            }
        }
    }

    #[test]
    fn red_and_green_collapse_without_m_or_l_cones_but_not_without_s() {
        let (red, green) = ([220, 40, 40], [40, 160, 40]);
        let seen = distance(red, green);
        for d in [Deficiency::Deuteranopia, Deficiency::Protanopia] {
            let after = distance(d.simulate(red), d.simulate(green));
            assert!(after < seen * 0.5, "{d:?}: {after} vs {seen}");
        }
        let tri = distance(
            Deficiency::Tritanopia.simulate(red),
            Deficiency::Tritanopia.simulate(green),
        );
        assert!(
            tri > seen * 0.7,
            "tritanopes still tell red from green: {tri}"
        );
    }

    #[test]
    fn blue_and_green_come_close_for_tritanopes() {
        let (blue, teal) = ([0, 114, 178], [0, 158, 115]);
        let seen = distance(blue, teal);
        let after = distance(
            Deficiency::Tritanopia.simulate(blue),
            Deficiency::Tritanopia.simulate(teal),
        );
        assert!(after < seen * 0.6, "{after} vs {seen}");
    }

    #[test]
    fn a_whole_picture_is_converted_and_names_parse() {
        let mut px = vec![220, 40, 40, 255, 255, 255];
        Deficiency::Deuteranopia.simulate_image(&mut px);
        assert_eq!(&px[3..], &[255, 255, 255]);
        assert_ne!(&px[..3], &[220, 40, 40]);
        assert_eq!("tritanopia".parse(), Ok(Deficiency::Tritanopia));
        assert!("colourblind".parse::<Deficiency>().is_err());
    }
}
