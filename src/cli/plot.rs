//! `giuthi plot`: draw the first-player margin of solved start positions as an SVG chart.

use super::usage;
use anyhow::Context;
use giuthi::{AnyPosition, Rules};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Arguments of `giuthi plot`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  giuthi plot positions/solved-starts*.txt --out docs/margins.svg\n  \
    giuthi plot positions/solved-starts.txt > margins.svg      # without --out: the SVG on stdout\n\n\
    Reads every line of the FILEs that carries a recorded solution (docs/positions.md) and whose \
    position is a start position (every pit holds the same number of seeds, nothing \
    captured), and plots its margin for the first player (South) against the seeds per \
    pit, one line per board size."
)]
pub struct Args {
    /// Positions files with recorded solutions (format: docs/positions.md).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Where to write the SVG (written whole: to a temporary name, then renamed; a file
    /// there is replaced). Without it the SVG goes to standard output.
    #[arg(long, value_name = "SVG")]
    pub out: Option<PathBuf>,
    /// Print one JSON object (needs --out, as the SVG would share stdout): {"out",
    /// "bytes", "series": [{"board", "points": [{"seeds_per_pit", "margin"}]}]}
    /// (docs/cli.md).
    #[arg(long, requires = "out")]
    pub json: bool,
}

/// What `plot --json` prints: the file written and the points plotted.
#[derive(Debug, serde::Serialize)]
struct PlotJson {
    /// The SVG file written.
    out: String,
    /// Its size in bytes.
    bytes: usize,
    /// One series a board, in the legend's order.
    series: Vec<SeriesJson>,
}

/// One line of the chart.
#[derive(Debug, serde::Serialize)]
struct SeriesJson {
    /// The board (`Giuthi 2x5`, `Kalah(4,s)`).
    board: String,
    /// Its points, by seeds per pit.
    points: Vec<PointJson>,
}

/// One point: a start position's exact margin for South (V3).
#[derive(Debug, serde::Serialize)]
struct PointJson {
    /// Seeds in every pit at the start.
    seeds_per_pit: i32,
    /// The recorded exact margin for South, the first player.
    margin: i32,
}

/// The plotted points of one file's `text` by board name: (seeds per pit, margin). A
/// line that cannot be read is skipped with a warning on stderr naming `file:LINE` and
/// the reason; a position without a recorded solution, or not a start, is skipped
/// quietly.
fn points(file: &str, text: &str, series: &mut BTreeMap<String, Vec<(i32, i32)>>) {
    for (no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let warn = |why: String| eprintln!("warning: {file}:{}: {why}; line skipped", no + 1);
        let Some((pos, record)) = line.split_once(" | ") else {
            // An unsolved position is no error; anything else is.
            if let Err(e) = line.parse::<AnyPosition>() {
                warn(format!("{e} (and no ` | ` recorded solution)"));
            }
            continue;
        };
        let any: AnyPosition = match pos.parse() {
            Ok(any) => any,
            Err(e) => {
                warn(e.to_string());
                continue;
            }
        };
        let Some(margin) = record.split(' ').find_map(|kv| kv.strip_prefix("margin=")) else {
            warn("the record has no margin=".to_string());
            continue;
        };
        let Ok(margin) = margin.trim_start_matches('+').parse::<i32>() else {
            warn(format!("margin={margin} is not a number"));
            continue;
        };
        let (name, seeds) = match &any {
            AnyPosition::Giuthi(p) => {
                let n = p.rules.pits_per_row();
                let pits = &p.state.pits[..2 * n];
                let uniform = pits.iter().all(|&x| x == pits[0]);
                if !uniform || p.captured.south != 0 || p.captured.north != 0 {
                    continue;
                }
                (format!("Giuthi 2x{n}"), pits[0] as i32)
            }
            AnyPosition::Kalah(p) => {
                let m = p.rules.pits_per_row();
                let pits = &p.state.pits[..2 * m];
                if !pits.iter().all(|&x| x == pits[0]) {
                    continue;
                }
                (format!("Kalah({m},s)"), pits[0] as i32)
            }
            AnyPosition::Kiothi(_) => continue,
        };
        series.entry(name).or_default().push((seeds, margin));
    }
}

/// Runs `giuthi plot`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut series: BTreeMap<String, Vec<(i32, i32)>> = BTreeMap::new();
    for f in &args.files {
        let text = super::common::read_named_file("FILE", f)?;
        points(&f.display().to_string(), &text, &mut series);
    }
    // A start recorded in several files (by two routes) is one point; two different
    // margins for one start are reported, and both drawn.
    for (name, v) in series.iter_mut() {
        v.sort();
        v.dedup();
        for w in v.windows(2) {
            if w[0].0 == w[1].0 {
                eprintln!(
                    "warning: {name} with {} seeds a pit is recorded with margins {:+} and {:+}",
                    w[0].0, w[0].1, w[1].1
                );
            }
        }
    }
    if series.is_empty() {
        return Err(usage(
            "no solved start positions to plot in the files given",
        ));
    }
    let all: Vec<(i32, i32)> = series.values().flatten().copied().collect();
    let x_max = all.iter().map(|p| p.0).max().unwrap_or(1) + 1;
    let y_abs = all.iter().map(|p| p.1.abs()).max().unwrap_or(1).max(2) + 2;
    if let Some(out) = &args.out {
        check_out(out)?;
        // Never replace one of the files being plotted with the plot.
        if let Ok(o) = out.canonicalize() {
            if args
                .files
                .iter()
                .any(|f| f.canonicalize().is_ok_and(|f| f == o))
            {
                return Err(usage(format!(
                    "--out {}: is one of the FILEs being plotted; give another path for the SVG",
                    out.display()
                )));
            }
        }
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 440)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Giuthi from the opening: exact margin for South (first player)",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0..x_max, -y_abs..y_abs)?;
        chart
            .configure_mesh()
            .x_desc("seeds per pit at the start")
            .y_desc("margin (seeds), perfect play")
            .x_labels(x_max as usize + 1)
            .draw()?;
        chart.draw_series(LineSeries::new([(0, 0), (x_max, 0)], BLACK.mix(0.4)))?;
        for (i, (name, pts)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))?
                .label(name.clone())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color));
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))?;
            chart.draw_series(pts.iter().map(|&(x, y)| {
                Text::new(format!("{y:+}"), (x, y), ("sans-serif", 12).into_font())
            }))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()?;
        root.present()?;
    }
    match &args.out {
        None => super::common::emit(&svg)?,
        Some(out) => {
            giuthi::fsutil::write_atomic(out, svg.as_bytes())
                .with_context(|| format!("--out {}: cannot write the SVG", out.display()))?;
            if args.json {
                let v = PlotJson {
                    out: out.display().to_string(),
                    bytes: svg.len(),
                    series: series
                        .iter()
                        .map(|(board, pts)| SeriesJson {
                            board: board.clone(),
                            points: pts
                                .iter()
                                .map(|&(seeds_per_pit, margin)| PointJson {
                                    seeds_per_pit,
                                    margin,
                                })
                                .collect(),
                        })
                        .collect(),
                };
                println!("{}", serde_json::to_string(&v)?);
            } else {
                println!("wrote {} ({} series)", out.display(), series.len());
            }
        }
    }
    Ok(0)
}

/// `--out` names a file in an existing folder: a usage error naming the option otherwise.
fn check_out(out: &Path) -> anyhow::Result<()> {
    if out.is_dir() {
        return Err(usage(format!(
            "--out {}: is a folder; give the SVG file's path",
            out.display()
        )));
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        return Err(usage(format!(
            "--out {}: the folder {} does not exist",
            out.display(),
            parent.display()
        )));
    }
    Ok(())
}
