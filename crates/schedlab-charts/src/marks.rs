//! The marks a chart draws, as boxes: every text with the box it covers
//! and every filled rectangle. A [`DrawingBackend`] that records instead of
//! drawing, so that a test can check a layout over thousands of charts
//! (overlapping labels, text off the canvas, bars too thin to see) without
//! parsing an SVG or looking at pixels.

use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform};

use crate::{draw, ChartError, ChartSpec, MIN_SIDE};

/// Advance of a character, in em, that a mark's box assumes: the average
/// of DejaVu Sans and Liberation Sans, the fonts a Linux browser draws
/// sans-serif with. The layout itself reserves 0.6 em, so a box computed
/// here is what the text covers with the fonts people have, not the room
/// the layout kept.
pub const MARK_EM: f64 = 0.55;

/// An axis-aligned box in the chart's pixels: left, top, right, bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extent {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl Extent {
    pub fn width(&self) -> f64 {
        self.right - self.left
    }

    pub fn height(&self) -> f64 {
        self.bottom - self.top
    }

    /// Whether the two boxes share more than a pixel's sliver of area.
    pub fn overlaps(&self, other: &Extent) -> bool {
        let x = self.right.min(other.right) - self.left.max(other.left);
        let y = self.bottom.min(other.bottom) - self.top.max(other.top);
        x > 1.0 && y > 1.0
    }

    /// Whether the box lies inside a `w` × `h` canvas, half a pixel spared.
    pub fn inside(&self, w: u32, h: u32) -> bool {
        self.left >= -0.5 && self.top >= -0.5 && self.right <= f64::from(w) + 0.5 && self.bottom <= f64::from(h) + 0.5
    }
}

/// One mark of a drawn chart.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A text, its font size in pixels and the box it covers (turned text
    /// covers a tall box).
    Text { text: String, size: f64, turned: bool, extent: Extent },
    /// A filled rectangle and its colour.
    Rect { colour: (u8, u8, u8), extent: Extent },
}

/// The marks of `spec` drawn on a `w` × `h` chart (each side clamped as
/// [`crate::try_to_svg`] clamps it), in drawing order.
pub fn marks(spec: &ChartSpec, w: u32, h: u32) -> Result<Vec<Mark>, ChartError> {
    let size = (w.clamp(MIN_SIDE, crate::MAX_SIDE), h.clamp(MIN_SIDE, crate::MAX_SIDE));
    let mut recorder = Recorder { size, marks: Vec::new() };
    {
        let root = (&mut recorder).into_drawing_area();
        draw(spec, &root)?;
    }
    Ok(recorder.marks)
}

struct Recorder {
    size: (u32, u32),
    marks: Vec<Mark>,
}

/// Share of the em box above every capital letter and digit: a text's ink
/// starts this far under its em box's top, so two texts whose em boxes
/// touch there do not touch on the screen.
const EMPTY_TOP: f64 = 0.12;

/// The box of `text` at `size` pixels anchored at `pos` by `style`: its
/// em box, less the empty strip at its top ([`EMPTY_TOP`]).
fn text_extent<S: BackendTextStyle>(text: &str, style: &S, pos: BackendCoord) -> (Extent, bool) {
    let size = style.size();
    let (long, short) = (text.chars().count() as f64 * size * MARK_EM, size);
    let (mut extent, turned) = em_box(style, pos, long, short);
    let trim = size * EMPTY_TOP;
    match style.transform() {
        // Turned text's top is its left (reading upwards) or right side.
        FontTransform::Rotate270 => extent.left += trim,
        FontTransform::Rotate90 => extent.right -= trim,
        _ => extent.top += trim,
    }
    (extent, turned)
}

/// The em box of a text `long` × `short` pixels anchored at `pos`.
fn em_box<S: BackendTextStyle>(style: &S, pos: BackendCoord, long: f64, short: f64) -> (Extent, bool) {
    let anchor = style.anchor();
    // Along the text: where the anchor lies from its start.
    let along = match anchor.h_pos {
        HPos::Left => 0.0,
        HPos::Center => 0.5,
        HPos::Right => 1.0,
    };
    // Across the text: where the anchor lies from its top.
    let across = match anchor.v_pos {
        VPos::Top => 0.0,
        VPos::Center => 0.5,
        VPos::Bottom => 1.0,
    };
    let (x, y) = (f64::from(pos.0), f64::from(pos.1));
    match style.transform() {
        // Reading upwards: the text's start is at the bottom.
        FontTransform::Rotate270 => {
            let (left, bottom) = (x - across * short, y + along * long);
            (Extent { left, top: bottom - long, right: left + short, bottom }, true)
        }
        // Reading downwards: the text's start is at the top.
        FontTransform::Rotate90 => {
            let (right, top) = (x + across * short, y - along * long);
            (Extent { left: right - short, top, right, bottom: top + long }, true)
        }
        _ => {
            let (left, top) = (x - along * long, y - across * short);
            (Extent { left, top, right: left + long, bottom: top + short }, false)
        }
    }
}

impl DrawingBackend for &mut Recorder {
    type ErrorType = std::convert::Infallible;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn draw_pixel(&mut self, _: BackendCoord, _: BackendColor) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let colour = style.color();
        // The white background and transparent fills are not marks.
        if fill && colour.alpha > 0.0 && colour.rgb != (255, 255, 255) {
            let extent = Extent {
                left: f64::from(upper_left.0.min(bottom_right.0)),
                top: f64::from(upper_left.1.min(bottom_right.1)),
                right: f64::from(upper_left.0.max(bottom_right.0)),
                bottom: f64::from(upper_left.1.max(bottom_right.1)),
            };
            self.marks.push(Mark::Rect { colour: colour.rgb, extent });
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: u32,
        _: &S,
        _: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        if !text.trim().is_empty() {
            let (extent, turned) = text_extent(text, style, pos);
            self.marks.push(Mark::Text { text: text.to_owned(), size: style.size(), turned, extent });
        }
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        let size = style.size();
        Ok(((text.chars().count() as f64 * size * 0.6).ceil() as u32, size.ceil() as u32))
    }
}
