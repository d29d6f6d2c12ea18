//! The analysis board in a real browser: headless Chromium driven through WebDriver
//! (chromedriver, the `fantoccini` crate) against `giuthi serve` on a free loopback port.
//! Opens a position by its address, checks the move values against the solver, clicks a
//! move and checks the new board and address, makes a branch in the move list and walks
//! it, flags a repetition (G10), animates a Kiothi sowing (partial lift, relay, capture)
//! to the engine's board, shows a big board's values marked not proven, types a bad
//! position and a bad editor field and checks the parser's message and the highlight.
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

/// Clicks pit `pit`, then the choice button of `mv` (a Kiothi pit lists its sowings).
async fn play_click(c: &fantoccini::Client, pit: usize, mv: &str) {
    // The board is redrawn as the page updates: the pit is clicked from the page's script.
    js(
        c,
        &format!("document.querySelector('g.pit[data-pit=\"{pit}\"]').dispatchEvent(new MouseEvent('click', {{bubbles: true}}));"),
    )
    .await;
    let sel = format!("#choices button[data-move=\"{mv}\"]");
    until(10, &sel, || {
        let c = c.clone();
        let sel = sel.clone();
        async move { c.find(Locator::Css(&sel)).await.ok() }
    })
    .await;
    js(
        c,
        &format!(
            "document.querySelector('{}').click();",
            sel.replace('\'', "\\'")
        ),
    )
    .await;
}

/// The shortest line of moves from `pos` back to it, starting with 5ccw
/// (found by breadth-first search over the engine's moves).
fn line_back_to_start(pos: &Position<Giuthi>) -> Vec<String> {
    use std::collections::{HashMap, VecDeque};
    let first = pos.play_str("5ccw").unwrap();
    let mut prev: HashMap<String, (String, String)> = HashMap::new();
    let mut queue = VecDeque::from([first.clone()]);
    let key = |p: &Position<Giuthi>| {
        Position::new(p.rules.clone(), p.state, Default::default()).to_string()
    };
    let target = key(pos);
    let start = key(&first);
    while let Some(p) = queue.pop_front() {
        for c in p.children() {
            let next = p.after(&c);
            let k = key(&next);
            if prev.contains_key(&k) || k == start {
                continue;
            }
            prev.insert(k.clone(), (key(&p), c.mv.to_string()));
            if k == target {
                let mut line = vec![];
                let mut at = k;
                while at != start {
                    let (from, mv) = prev[&at].clone();
                    line.push(mv);
                    at = from;
                }
                line.push("5ccw".to_string());
                line.reverse();
                return line;
            }
            queue.push_back(next);
        }
    }
    panic!("no line back to the start");
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
        // Every look-up waits up to 15 s for its element (WebDriver's implicit wait), so a
        // page slowed by a loaded machine is waited for, not reported missing.
        c.update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            None,
            None,
            Some(Duration::from_secs(15)),
        ))
        .await
        .unwrap();

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
        // Solved by the retrograde pass: its work is its graph's states, not "0 nodes".
        let progress = c
            .find(Locator::Css("#progress"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            progress.contains("solved exactly by the retrograde pass over 18 states"),
            "{progress}"
        );
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

        // 4. A branch: back to the start, play 5cw instead of 5ccw. The move list keeps
        //    5ccw as the main line and shows 5cw as a variation; a click on 5ccw goes
        //    there, and Back/Forward follow that branch.
        c.find(Locator::Css("#back")).await.unwrap().click().await.unwrap();
        until(20, "the start again", || {
            let c = c.clone();
            async move { (board_counts(&c).await == [1, 0, 0, 0, 1, 3, 0, 0]).then_some(()) }
        })
        .await;
        play_click(&c, 5, "5cw").await;
        c.find(Locator::Css("#skip")).await.unwrap().click().await.unwrap();
        let after_cw = pos.play_str("5cw").unwrap();
        let want: Vec<u32> = after_cw.state.pits[..8].iter().map(|&x| x as u32).collect();
        until(20, "the board after 5cw", || {
            let c = c.clone();
            let want = want.clone();
            async move { (board_counts(&c).await == want).then_some(()) }
        })
        .await;
        let main = js(&c, "return [...document.querySelectorAll('#movelist > .mvl')].map(e => e.dataset.move);").await;
        assert_eq!(main, json!(["5ccw"]), "the main line");
        let var = js(&c, "return [...document.querySelectorAll('#movelist > .variation > .mvl')].map(e => e.dataset.move);").await;
        assert_eq!(var, json!(["5cw"]), "the variation");
        let cur = js(&c, "return document.querySelector('#movelist .mvl.cur').dataset.move;").await;
        assert_eq!(cur, json!("5cw"));
        std::fs::write(shots.join("branch.png"), c.screenshot().await.unwrap()).unwrap();
        // (The list is rebuilt as the page updates: clicked from the page's own script.)
        js(&c, "document.querySelector('#movelist > .mvl[data-move=\"5ccw\"]').click();").await;
        let want_ccw: Vec<u32> = after.state.pits[..8].iter().map(|&x| x as u32).collect();
        until(20, "the main line's board", || {
            let c = c.clone();
            let want = want_ccw.clone();
            async move { (board_counts(&c).await == want).then_some(()) }
        })
        .await;
        c.find(Locator::Css("#back")).await.unwrap().click().await.unwrap();
        c.find(Locator::Css("#forward")).await.unwrap().click().await.unwrap();
        c.find(Locator::Css("#skip")).await.unwrap().click().await.unwrap();
        until(20, "Forward along the branch last visited", || {
            let c = c.clone();
            let want = want_ccw.clone();
            async move { (board_counts(&c).await == want).then_some(()) }
        })
        .await;

        // 5. A repetition (G10) flagged in the line where it happens: a line back to the
        //    start found by the engine, played by clicks.
        let back_line = line_back_to_start(&pos);
        c.find(Locator::Css("#back")).await.unwrap().click().await.unwrap();
        for (i, mv) in back_line.iter().enumerate() {
            if mv == "pass" {
                // G8: the page offers Pass without a pit.
                let sel = "#choices button[data-move=\"pass\"]";
                until(10, sel, || {
                    let c = c.clone();
                    async move { c.find(Locator::Css(sel)).await.ok() }
                })
                .await;
                js(&c, &format!("document.querySelector('{sel}').click();")).await;
            } else {
                let pit: usize = mv.trim_end_matches(|ch: char| ch.is_ascii_alphabetic()).parse().unwrap();
                play_click(&c, pit, mv).await;
            }
            let ply = json!((i + 1).to_string());
            until(10, "the move played", || {
                let c = c.clone();
                let ply = ply.clone();
                async move {
                    let v = js(&c, "return document.querySelector('#movelist .mvl.cur')?.dataset.ply ?? null;").await;
                    (v == ply).then_some(())
                }
            })
            .await;
            c.find(Locator::Css("#skip")).await.unwrap().click().await.unwrap();
        }
        let rep = until(20, "the repetition flag", || {
            let c = c.clone();
            async move {
                let t = c.find(Locator::Css("#movelist .mvl.repeated .rep")).await.ok()?.text().await.ok()?;
                Some(t)
            }
        })
        .await;
        assert!(rep.contains("repeats the start") && rep.contains("G10"), "{rep}");
        let status = c.find(Locator::Css("#status")).await.unwrap().text().await.unwrap();
        assert!(status.contains("G10"), "{status}");
        std::fs::write(shots.join("repetition.png"), c.screenshot().await.unwrap()).unwrap();

        // 6. A Kiothi sowing animated (K5 partial lift, K7 relay, K8 capture, K12 stale
        //    mark cleared): the animation, not a skip, ends on the engine's board.
        let k = "kiothi 0,0,0,0,0,0,0,2s,1,3/0,0,0,0,0,0,0,0,0,11 S 0,0 play";
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
        play_click(&c, 19, "19x9").await;
        let lap1 = until(10, "the first lap's caption", || {
            let c = c.clone();
            async move {
                let t = c.find(Locator::Css("#caption")).await.ok()?.text().await.ok()?;
                t.contains("Lap 1").then_some(t)
            }
        })
        .await;
        assert!(lap1.contains("lift 9 warriors from pit 19 (2 stay, K5)"), "{lap1}");
        let relay = until(20, "the relay's caption", || {
            let c = c.clone();
            async move {
                let t = c.find(Locator::Css("#caption")).await.ok()?.text().await.ok()?;
                t.contains("Lap 2").then_some(t)
            }
        })
        .await;
        assert!(relay.contains("pit 8") && relay.contains("K7"), "{relay}");
        std::fs::write(shots.join("kiothi-sowing.png"), c.screenshot().await.unwrap()).unwrap();
        let kafter = kpos.play_str("19x9").unwrap();
        let want: Vec<u32> = kafter.state.pits.iter().map(|&x| x as u32).collect();
        until(30, "the Kiothi board after 19x9", || {
            let c = c.clone();
            let want = want.clone();
            async move {
                let done = js(&c, "return document.getElementById('caption').textContent.includes('(K8)');").await;
                (done == json!(true) && board_counts(&c).await == want).then_some(())
            }
        })
        .await;
        let caption = c.find(Locator::Css("#caption")).await.unwrap().text().await.unwrap();
        assert!(caption.contains("5 in all"), "{caption}");
        let marks = js(&c, "return [...document.querySelectorAll('#board g.pit')].map(g => g.querySelector('text.mark')?.textContent || '');").await;
        let want_marks: Vec<String> = (0..20)
            .map(|p| {
                giuthi::Rules::pit_label(&kafter.rules, &kafter.state, p)
                    .trim_start_matches(|ch: char| ch.is_ascii_digit())
                    .to_string()
            })
            .collect();
        assert_eq!(marks, json!(want_marks));
        let prison = js(&c, "return document.querySelectorAll('#board .side-label')[1].textContent;").await;
        assert!(prison.as_str().unwrap().contains("prison: 5"), "{prison}");
        // Each prison is labelled with its owner: North's on the left, South's on the right.
        let owners = js(&c, "return [...document.querySelectorAll('#board .store-label')].map(t => t.textContent).join(' ');").await;
        assert_eq!(owners, json!("North prison South prison"), "{owners}");
        std::fs::write(shots.join("kiothi.png"), c.screenshot().await.unwrap()).unwrap();

        // 7. A board too big to solve: every move's value shown, marked not proven.
        let big = "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S 0,0";
        c.goto(&format!("http://{addr}/#pos={}", big.replace(' ', "%20")))
            .await
            .unwrap();
        let n = until(60, "the heuristic values", || {
            let c = c.clone();
            async move {
                let v = js(&c, "return document.querySelectorAll('#values .group.heuristic .mv[data-exact=\"false\"]').length;").await;
                let n = v.as_u64().unwrap();
                (n > 0).then_some(n)
            }
        })
        .await;
        assert_eq!(n, 16, "every legal move of the 2x8x8 start");
        // The panel is redrawn as the heuristic search deepens: its three texts are read
        // in one script (between two redraws), not element by element (a stale element).
        let texts = until(30, "the heuristic panel's texts", || {
            let c = c.clone();
            async move {
                let v = js(&c, "const h = document.querySelector('#values .group.heuristic h3'); const v = document.querySelector('#values .mv[data-exact=\"false\"] .val'); const s = document.querySelector('#summary'); return (h && v && s) ? [h.innerText, v.innerText, s.innerText] : null;").await;
                v.as_array().map(|a| a.iter().map(|x| x.as_str().unwrap_or_default().to_string()).collect::<Vec<String>>())
            }
        })
        .await;
        let (head, val, summary) = (&texts[0], &texts[1], &texts[2]);
        assert!(head.to_lowercase().contains("heuristic, not proven") && head.to_lowercase().contains("depth"), "{head}");
        assert!(val.starts_with('≈'), "{val}");
        assert!(summary.contains("not proven"), "{summary}");
        std::fs::write(shots.join("big-board.png"), c.screenshot().await.unwrap()).unwrap();

        // 8. A bad position typed in: the parser's message, naming the field, and that
        //    field of the typed text marked.
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
        let marked = c.find(Locator::Css("#posfields .bad")).await.unwrap();
        assert_eq!(marked.attr("data-field").await.unwrap().as_deref(), Some("board"));
        assert_eq!(marked.text().await.unwrap(), "4,4,4/4,4");
        std::fs::write(shots.join("error.png"), c.screenshot().await.unwrap()).unwrap();

        // 9. The editor: a bad variant typed in is highlighted, the parser's message
        //    beside it; fixed, the highlight goes and Done opens the position.
        c.goto(&format!("http://{addr}/#pos={}", text.replace(' ', "%20")))
            .await
            .unwrap();
        until(20, "the start position", || {
            let c = c.clone();
            async move { (board_counts(&c).await == [1, 0, 0, 0, 1, 3, 0, 0]).then_some(()) }
        })
        .await;
        c.find(Locator::Css("#edit")).await.unwrap().click().await.unwrap();
        let variant = c.find(Locator::Css("#ed-variant")).await.unwrap();
        variant.send_keys("chain=two").await.unwrap();
        let msg = "giuthi:chain=two 1,0,0,0/1,3,0,0 S 0,2"
            .parse::<giuthi::AnyPosition>()
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("field variant"), "{msg}");
        let beside = until(10, "the variant's message", || {
            let c = c.clone();
            async move {
                c.find(Locator::Css("#editor .fielderr[data-field=\"variant\"]"))
                    .await
                    .ok()?
                    .text()
                    .await
                    .ok()
            }
        })
        .await;
        assert_eq!(beside, msg);
        let bad = js(&c, "return [...document.querySelectorAll('#editor .bad')].map(e => e.id);").await;
        assert_eq!(bad, json!(["ed-variant"]));
        std::fs::write(shots.join("editor-error.png"), c.screenshot().await.unwrap()).unwrap();
        variant.clear().await.unwrap();
        variant.send_keys("chain=one").await.unwrap();
        until(10, "the highlight gone", || {
            let c = c.clone();
            async move {
                let n = js(&c, "return document.querySelectorAll('#editor .bad, .fielderr').length;").await;
                (n == json!(0)).then_some(())
            }
        })
        .await;
        c.find(Locator::Css("#ed-done")).await.unwrap().click().await.unwrap();
        until(10, "the edited position opened", || {
            let c = c.clone();
            async move {
                let v = js(&c, "return document.getElementById('posinput').value;").await;
                (v == json!("giuthi:chain=one 1,0,0,0/1,3,0,0 S 0,2")).then_some(())
            }
        })
        .await;
        c.close().await.unwrap();
    });
}
