//! The analysis board in a real browser: headless Chromium driven through WebDriver
//! (chromedriver, the `fantoccini` crate) against `giuthi serve` on a free loopback port.
//! Opens a position by its address, checks the move values against the solver, clicks a
//! move and checks the new board and address, types a bad position and checks the
//! parser's message.
//!
//! Needs Debian's `chromium` and `chromium-driver`. Under `CI=true` their absence fails
//! the test; elsewhere it says it was skipped and why. Screenshots go to
//! `target/serve-screenshots/` (set `GIUTHI_SCREENSHOTS=DIR` to write them elsewhere).

use fantoccini::{ClientBuilder, Locator};
use giuthi::rules::giuthi::Giuthi;
use giuthi::server::JobLimits;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::Position;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// chromedriver, killed when dropped.
struct Driver(Child);
impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn shots_dir() -> PathBuf {
    let d = std::env::var_os("GIUTHI_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-screenshots"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Polls `f` until it returns `Some`, for at most `secs` seconds.
async fn until<T, F, Fut>(secs: u64, what: &str, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let start = Instant::now();
    loop {
        if let Some(v) = f().await {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn js(c: &fantoccini::Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap()
}

async fn board_counts(c: &fantoccini::Client) -> Vec<u32> {
    let v = js(c, "return [...document.querySelectorAll('#board g.pit text.count')].map(t => Number(t.textContent));").await;
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

/// Decodes `%XX` escapes (ASCII only, which positions are).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let v = u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap();
            out.push(v as char);
            i += 3;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The whole walk through the page (one browser session: starting Chromium is the slow
/// part).
#[test]
fn browser_opens_a_position_shows_values_plays_and_reports_errors() {
    let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"]);
    let driver = find_program(&["chromedriver"]);
    let (Some(chromium), Some(driver)) = (chromium, driver) else {
        let why = "chromium or chromedriver not found on PATH (Debian: apt-get install -y chromium chromium-driver)";
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("CI=true and {why}");
        }
        eprintln!("skipped: {why}");
        return;
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(giuthi::server::serve(listener, JobLimits::default()));

        let port = free_port();
        let _driver = Driver(
            Command::new(&driver)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        let profile = tempfile::tempdir().unwrap();
        let caps = json!({
            "goog:chromeOptions": {
                "binary": chromium.to_str().unwrap(),
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--window-size=1280,860",
                    format!("--user-data-dir={}", profile.path().display()),
                ]
            }
        });
        let caps = caps.as_object().unwrap().clone();
        let url = format!("http://127.0.0.1:{port}");
        let c = until(20, "chromedriver", || {
            let caps = caps.clone();
            let url = url.clone();
            async move {
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                    .capabilities(caps)
                    .connect(&url)
                    .await
                    .ok()
            }
        })
        .await;

        // 1. Open a position by its address; every move's value equals the solver's.
        let text = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
        let pos: Position<Giuthi> = text.parse().unwrap();
        let expected = Solver::new(pos.rules.clone(), SolverOptions::default())
            .analyze(&pos)
            .unwrap();
        let page = format!("http://{addr}/#pos={}", text.replace(' ', "%20"));
        c.goto(&page).await.unwrap();
        for (mv, margin) in &expected {
            let sel = format!(".mv[data-move=\"{mv}\"] .val");
            let shown = until(30, &sel, || {
                let c = c.clone();
                let sel = sel.clone();
                async move { c.find(Locator::Css(&sel)).await.ok()?.text().await.ok() }
            })
            .await;
            let want = if *margin > 0 {
                format!("+{margin}")
            } else {
                margin.to_string()
            };
            assert_eq!(shown, want, "{mv}");
        }
        let best = c
            .find(Locator::Css(".mv.best"))
            .await
            .unwrap()
            .attr("data-move")
            .await
            .unwrap();
        assert_eq!(best.as_deref(), Some("5cw"));
        let summary = c
            .find(Locator::Css("#summary"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(summary.contains("lo +3, hi +inf"), "{summary}");
        assert!(summary.contains("G10"), "{summary}");
        assert_eq!(board_counts(&c).await, [1, 0, 0, 0, 1, 3, 0, 0]);
        let shots = shots_dir();
        std::fs::write(shots.join("open.png"), c.screenshot().await.unwrap()).unwrap();

        // 2. Click pit 5, then ccw (a three-lap relay); after the animation the board and
        //    the address are those of the engine's position.
        c.find(Locator::Css("g.pit[data-pit=\"5\"]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let button = c
            .find(Locator::Css("#choices button[data-move=\"5ccw\"]"))
            .await
            .unwrap();
        button.click().await.unwrap();
        let after = pos.play_str("5ccw").unwrap();
        tokio::time::sleep(Duration::from_millis(400)).await;
        std::fs::write(shots.join("sowing.png"), c.screenshot().await.unwrap()).unwrap();
        c.find(Locator::Css("#skip"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let want: Vec<u32> = after.state.pits[..8].iter().map(|&x| x as u32).collect();
        until(20, "the board after 5ccw", || {
            let c = c.clone();
            let want = want.clone();
            async move { (board_counts(&c).await == want).then_some(()) }
        })
        .await;
        let status = c
            .find(Locator::Css("#status"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(status.starts_with("North to move"), "{status}");
        let url = c.current_url().await.unwrap();
        let frag = url.fragment().unwrap_or("").to_string();
        let shown = percent_decode(frag.strip_prefix("pos=").unwrap());
        assert_eq!(shown, after.to_string());
        let moves = c
            .find(Locator::Css("#movelist"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(moves.contains("5ccw"), "{moves}");

        // 3. Export the line in the positions/ format: the start carries its record.
        c.find(Locator::Css("#export"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let exported = js(&c, "return document.getElementById('exported').value;").await;
        let first = exported
            .as_str()
            .unwrap()
            .lines()
            .find(|l| !l.starts_with('#'))
            .unwrap()
            .to_string();
        assert_eq!(
            first,
            format!("{text} | lo=+3 hi=+inf margin=+1 result=win best=5cw")
        );

        // 4. A Kiothi position by address (K5): 20 pits shown, a sowing played by a click.
        let k = "kiothi 0,0,0,0,0,4,0,0,0,0/0,0,0,0,0,0,0,0,0,6 S 0,0 play";
        let kpos: Position<giuthi::rules::kiothi::Kiothi> = k.parse().unwrap();
        c.goto(&format!("http://{addr}/#pos={}", k.replace(' ', "%20")))
            .await
            .unwrap();
        let want: Vec<u32> = kpos.state.pits.iter().map(|&x| x as u32).collect();
        until(20, "the Kiothi board", || {
            let c = c.clone();
            let want = want.clone();
            async move { (board_counts(&c).await == want).then_some(()) }
        })
        .await;
        c.find(Locator::Css("g.pit[data-pit=\"19\"]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        c.find(Locator::Css("#choices button[data-move=\"19x1\"]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let kafter = kpos.play_str("19x1").unwrap();
        let want: Vec<u32> = kafter.state.pits.iter().map(|&x| x as u32).collect();
        until(20, "the Kiothi board after 19x1", || {
            let c = c.clone();
            let want = want.clone();
            async move { (board_counts(&c).await == want).then_some(()) }
        })
        .await;
        std::fs::write(shots.join("kiothi.png"), c.screenshot().await.unwrap()).unwrap();

        // 5. A bad position typed in: the parser's message, naming the field.
        let bad = "giuthi 4,4,4/4,4 S 0,0";
        let msg = bad.parse::<giuthi::AnyPosition>().unwrap_err().to_string();
        let input = c.find(Locator::Css("#posinput")).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(bad).await.unwrap();
        c.find(Locator::Css("#posform button"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let shown = until(10, "the error message", || {
            let c = c.clone();
            async move {
                let t = c
                    .find(Locator::Css("#poserror"))
                    .await
                    .ok()?
                    .text()
                    .await
                    .ok()?;
                (!t.is_empty()).then_some(t)
            }
        })
        .await;
        assert_eq!(shown, msg);
        assert!(shown.starts_with("field board"));
        std::fs::write(shots.join("error.png"), c.screenshot().await.unwrap()).unwrap();
        c.close().await.unwrap();
    });
}
