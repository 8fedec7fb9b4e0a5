//! A chart drawn crisp on a canvas: laid out for fewer "chart pixels"
//! than the canvas has (so that its text is larger on the screen, as in
//! the presentation layout, and the same size on a screen of any pixel
//! density) and drawn through the canvas's transform, scaled to every one
//! of the canvas's pixels. Scaling the canvas up afterwards (a backing
//! store smaller than the element) would blur it.

use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A canvas whose drawing is scaled by `ratio`: it tells plotters it is
/// `canvas.width / ratio` × `canvas.height / ratio` pixels.
pub struct Scaled {
    inner: CanvasBackend,
    size: (u32, u32),
}

/// Why a canvas cannot be drawn on.
pub fn scaled(canvas: HtmlCanvasElement, ratio: f64) -> Result<Scaled, String> {
    if !(ratio.is_finite() && (0.1..=16.0).contains(&ratio)) {
        return Err(format!("the chart's pixel ratio must be from 0.1 to 16, not {ratio}"));
    }
    let context = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or("the canvas has no 2D drawing context")?;
    // Every coordinate and text size plotters gives is multiplied by the
    // ratio on its way to the canvas's pixels.
    context.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0).map_err(|_| "the canvas refused a scale")?;
    let size = logical_size(canvas.width(), canvas.height(), ratio);
    let inner = CanvasBackend::with_canvas_object(canvas).ok_or("the canvas has no 2D drawing context")?;
    Ok(Scaled { inner, size })
}

/// The chart's size in its own pixels: the canvas's divided by `ratio`,
/// at least one pixel a side.
pub fn logical_size(width: u32, height: u32, ratio: f64) -> (u32, u32) {
    let side = |n: u32| ((f64::from(n) / ratio).round() as u32).max(1);
    (side(width), side(height))
}

impl DrawingBackend for Scaled {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        self.inner.estimate_text_size(text, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.blit_bitmap(pos, size, src)
    }
}

#[cfg(test)]
mod tests {
    use super::logical_size;

    #[test]
    fn the_chart_is_laid_out_on_the_canvas_pixels_divided_by_the_ratio() {
        // A 1000 × 625 CSS-pixel chart at device pixel ratio 2 in the
        // presentation layout (0.6 chart pixels per CSS pixel): the canvas
        // has 2000 × 1250 pixels, the ratio is 2 / 0.6, the chart 600 × 375.
        assert_eq!(logical_size(2000, 1250, 2.0 / 0.6), (600, 375));
        assert_eq!(logical_size(800, 500, 1.0), (800, 500));
        assert_eq!(logical_size(1, 1, 4.0), (1, 1), "never an empty chart");
    }
}
