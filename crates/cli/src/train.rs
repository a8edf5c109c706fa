//! `spelbord train`: trains a game's evaluation network by TD(λ)
//! self-play, with periodic checkpoints that a later run resumes from.

use crate::label::read_labels;
use crate::term::{progress, progress_wanted};
use anyhow::{Context, Result, bail};
use clap::Args;
use spelbord_ai::net::label::{fit, fit_error};
use spelbord_ai::net::seat_train::{new_seat_net, train_seats};
use spelbord_ai::net::train::{TrainConfig, new_net, train, widen};
use spelbord_ai::net::{Mlp, NetFile, NetVariant, SHIPPED, SeatNet, check, load, load_seat_net};
use spelbord_engine::backgammon::{Backgammon, BackgammonRules};
use spelbord_engine::high_gammon::{HighGammon, TricTrac};
use spelbord_engine::stumphog::Stumphog;
use spelbord_engine::tawla::{Tawla, TawlaRules};
use spelbord_engine::{Game, GameState, Options};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `spelbord train`.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// The game's id: backgammon, tawla, high-gammon, tric-trac, stumphog.
    pub game: String,
    /// A game option as key=value (repeatable). Backgammon and Tawla: the
    /// cube and match options do not change self-play, which is cubeless
    /// single games. High-O Gammon and Tric-Trac: one network per number of
    /// players (`players=2`, 3 or 4).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Self-play games to train on in this run.
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// Games played at once (one core each); the result depends on it.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the dice and of a new network's weights.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Continue training the network in this file.
    #[arg(long, value_name = "FILE", conflicts_with = "widen")]
    pub resume: Option<String>,
    /// Continue training the network in this file widened to the game's
    /// newest encoding (backgammon and Tawla: encoding 1 to 2), the new inputs'
    /// weights zero; `--games 0` only writes the widened network.
    #[arg(long, value_name = "FILE")]
    pub widen: Option<String>,
    /// Where to write the network (and its checkpoints).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// The trace decay λ of TD(λ) (0: TD(0); High-O Gammon, Tric-Trac and
    /// Stumphög train by TD(0) only).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f32,
    /// The learning rate.
    #[arg(long, default_value_t = 0.1)]
    pub alpha: f32,
    /// Hidden units of a new network.
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// Write a checkpoint every this many games.
    #[arg(long, default_value_t = 10_000)]
    pub checkpoint_every: u64,
    /// Backgammon: fit the network (`--resume`'s, else the shipped one) to
    /// the rollout labels in this file (`spelbord label`) instead of
    /// self-play; every tenth label is held out to show the fit.
    #[arg(long, value_name = "FILE", conflicts_with = "widen")]
    pub fit: Option<String>,
    /// Passes over the labels with `--fit`.
    #[arg(long, default_value_t = 4)]
    pub epochs: u32,
}

fn write(net: &NetFile, path: &str) -> Result<()> {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, net.to_bytes()).with_context(|| format!("writing {tmp}"))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {path}"))?;
    Ok(())
}

fn config(args: &TrainArgs) -> TrainConfig {
    TrainConfig {
        games: args.games,
        threads: args.threads.max(1),
        seed: args.seed,
        lambda: args.lambda.clamp(0.0, 1.0),
        alpha: args.alpha,
        hidden: args.hidden,
        ..TrainConfig::default()
    }
}

fn run_for<V: NetVariant>(variant: V, args: &TrainArgs) -> Result<()> {
    let out = args.out.clone().unwrap_or_else(|| format!("{}.net", V::ID));
    let mut net = match (&args.resume, &args.widen) {
        (Some(path), _) => {
            let net = read(path)?;
            check::<V>(&net, path)?;
            net
        }
        (None, Some(path)) => widen::<V>(&read(path)?, path)?,
        (None, None) => new_net::<V>(args.hidden.max(1), args.seed),
    };
    let cfg = config(args);
    run_training(&mut net, &cfg, args, &out, |net, cfg, on_batch| {
        Ok(train(variant, net, cfg, on_batch)?)
    })
}

/// The network in the file at `path`.
fn read(path: &str) -> Result<NetFile> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {path}"))?;
    NetFile::from_bytes(&bytes).with_context(|| format!("reading {path}"))
}

/// Trains the seat network of game `G` (High-O Gammon, Tric-Trac, Stumphög).
fn run_seats<G: Game>(args: &TrainArgs) -> Result<()>
where
    G::State: SeatNet,
{
    if args.lambda != 0.0 {
        bail!("{} networks train by TD(0) only: leave out --lambda", G::ID);
    }
    if args.widen.is_some() {
        bail!("{} networks have one encoding: nothing to widen", G::ID);
    }
    let options = Options::parse(G::ID, G::option_specs(), &args.options)?;
    let game = G::from_options(&options)?;
    let start = game.initial_state();
    let players = start.num_players();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| format!("{}-{players}.net", G::ID));
    let mut net = match &args.resume {
        Some(path) => {
            let net = load_seat_net::<G::State>(start.net_game(), players, Some(path))?;
            NetFile::clone(&net)
        }
        None => new_seat_net(&start, args.hidden.max(1), args.seed),
    };
    let cfg = config(args);
    run_training(&mut net, &cfg, args, &out, |net, cfg, on_batch| {
        train_seats(&game, net, cfg, on_batch);
        Ok(())
    })
}

/// Runs `train` on `net` with a progress bar and checkpoints to `out`.
fn run_training(
    net: &mut NetFile,
    cfg: &TrainConfig,
    args: &TrainArgs,
    out: &str,
    train: impl FnOnce(&mut NetFile, &TrainConfig, &mut dyn FnMut(&NetFile, u64)) -> Result<()>,
) -> Result<()> {
    let show = progress_wanted(false);
    let bar = progress(args.games, show);
    let start = Instant::now();
    let cpu = cpu_time::ProcessTime::now();
    let every = args.checkpoint_every.max(1);
    let mut failed = None;
    let trained = train(net, cfg, &mut |net, done| {
        bar.set_position(done);
        if done % every < cfg.threads as u64 || done == cfg.games {
            if let Err(e) = write(net, out) {
                failed.get_or_insert(e);
            }
            if !show {
                eprintln!(
                    "{} games ({} in all), {:.0} s, {:.0} CPU s",
                    done,
                    net.games_trained,
                    start.elapsed().as_secs_f64(),
                    cpu.elapsed().as_secs_f64()
                );
            }
        }
    });
    bar.finish_and_clear();
    trained?;
    if let Some(e) = failed {
        return Err(e);
    }
    write(net, out)?;
    eprintln!(
        "{}: {} games this run, {} in all; {:.0} s, {:.0} CPU s; written to {out}",
        net.game,
        args.games,
        net.games_trained,
        start.elapsed().as_secs_f64(),
        cpu.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Fits a backgammon network to the rollout labels in `labels`, showing
/// its error on the labels it learns from and on those held out.
fn fit_backgammon(args: &TrainArgs, labels: &str) -> Result<()> {
    let out = args.out.clone().unwrap_or_else(|| "backgammon.net".into());
    let mut net = match &args.resume {
        Some(path) => read(path)?,
        None => NetFile::clone(&*load::<BackgammonRules>(None)?),
    };
    let encoding = check::<BackgammonRules>(&net, args.resume.as_deref().unwrap_or("shipped"))?;
    let (mut learn, mut held) = (Vec::new(), Vec::new());
    for (i, l) in read_labels(labels)?.into_iter().enumerate() {
        if i % 10 == 0 {
            held.push(l)
        } else {
            learn.push(l)
        }
    }
    let show = |epoch: u32, mlp: &Mlp| {
        let (a, b) = (
            fit_error::<BackgammonRules>(mlp, encoding, &learn),
            fit_error::<BackgammonRules>(mlp, encoding, &held),
        );
        eprintln!(
            "epoch {epoch}: mean error of the winning chance {:.4} (held out {:.4}), of the equity {:.4} (held out {:.4})",
            a.win, b.win, a.equity, b.equity
        );
    };
    show(0, &net.net);
    let start = Instant::now();
    fit::<BackgammonRules>(
        &mut net.net,
        encoding,
        &learn,
        args.epochs,
        args.alpha,
        args.seed,
        show,
    );
    write(&net, &out)?;
    eprintln!(
        "{} labels learnt from, {} held out; {:.0} s; written to {out}",
        learn.len(),
        held.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Runs `spelbord train`.
pub fn run(args: TrainArgs) -> Result<ExitCode> {
    match args.game.as_str() {
        "backgammon" => {
            Options::parse(Backgammon::ID, Backgammon::option_specs(), &args.options)?;
            match &args.fit {
                Some(labels) => fit_backgammon(&args, labels)?,
                None => run_for(BackgammonRules, &args)?,
            }
        }
        "tawla" => {
            let options = Options::parse(Tawla::ID, Tawla::option_specs(), &args.options)?;
            let mother = options.get("mother") != "off";
            run_for(TawlaRules { mother }, &args)?;
        }
        "high-gammon" => run_seats::<HighGammon>(&args)?,
        "tric-trac" => run_seats::<TricTrac>(&args)?,
        "stumphog" => run_seats::<Stumphog>(&args)?,
        other => bail!(
            "no network to train for `{other}` (networks exist for: {})",
            SHIPPED.join(", ")
        ),
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_ai::net::Outputs;

    fn args(game: &str, out: &str) -> TrainArgs {
        TrainArgs {
            game: game.into(),
            options: vec!["mother=on".into()],
            games: 4,
            threads: 2,
            seed: 5,
            resume: None,
            widen: None,
            out: Some(out.into()),
            lambda: 0.0,
            alpha: 0.1,
            hidden: 4,
            checkpoint_every: 2,
            fit: None,
            epochs: 4,
        }
    }

    #[test]
    fn tawla_trains_and_resumes_from_its_checkpoint() {
        let path = std::env::temp_dir().join(format!("spelbord-train-{}.net", std::process::id()));
        let out = path.to_str().unwrap();
        run(args("tawla", out)).unwrap();
        let net = NetFile::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!((net.game.as_str(), net.games_trained), ("tawla", 4));
        assert_eq!(net.outputs, Outputs::WinGammonBackgammon);
        let mut again = args("tawla", out);
        again.resume = Some(out.into());
        run(again).unwrap();
        let net = NetFile::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(net.games_trained, 8);
        // A Tawla network is no backgammon network.
        let mut wrong = args("backgammon", out);
        wrong.options.clear();
        wrong.resume = Some(out.into());
        assert!(run(wrong).is_err());
        std::fs::remove_file(&path).ok();
        let err = run(args("lager", out)).unwrap_err().to_string();
        assert!(err.contains("backgammon, tawla, high-gammon"), "{err}");
    }

    #[test]
    fn high_gammon_trains_one_network_per_number_of_players() {
        let path =
            std::env::temp_dir().join(format!("spelbord-train-hg-{}.net", std::process::id()));
        let out = path.to_str().unwrap();
        let mut three = args("high-gammon", out);
        three.options = vec!["players=3".into()];
        run(three.clone()).unwrap();
        let net = NetFile::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!((net.game.as_str(), net.games_trained), ("high-gammon", 4));
        assert_eq!(net.outputs, Outputs::SeatWinPoints(3));
        three.resume = Some(out.into());
        run(three.clone()).unwrap();
        let net = NetFile::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(net.games_trained, 8);
        // A three-player network does not resume for four players, nor for
        // Tric-Trac.
        let mut four = three.clone();
        four.options = vec!["players=4".into()];
        assert!(run(four).is_err());
        let mut tric = three.clone();
        tric.game = "tric-trac".into();
        assert!(run(tric).is_err());
        // TD(0) only.
        let mut traces = three;
        traces.lambda = 0.5;
        assert!(run(traces).is_err());
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn stumphog_trains() {
        let path =
            std::env::temp_dir().join(format!("spelbord-train-st-{}.net", std::process::id()));
        let out = path.to_str().unwrap();
        let mut a = args("stumphog", out);
        a.options.clear();
        run(a).unwrap();
        let net = NetFile::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!((net.game.as_str(), net.outputs), ("stumphog", Outputs::Win));
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn backgammon_widens_the_shipped_network_to_encoding_2() {
        let path =
            std::env::temp_dir().join(format!("spelbord-train-bg2-{}.net", std::process::id()));
        let out = path.to_str().unwrap();
        let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../ai/weights/backgammon.net");
        let mut a = args("backgammon", out);
        a.options.clear();
        a.widen = Some(shipped.into());
        a.games = 0;
        run(a.clone()).unwrap();
        let net = NetFile::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let before = NetFile::from_bytes(&std::fs::read(shipped).unwrap()).unwrap();
        assert_eq!((net.encoding, net.net.inputs()), (2, 221));
        assert_eq!(net.games_trained, before.games_trained);
        // It resumes as encoding 2; a Tawla network does not widen to backgammon.
        a.games = 2;
        a.widen = None;
        a.resume = Some(out.into());
        run(a.clone()).unwrap();
        a.resume = None;
        let tawla = path.with_extension("tawla.net");
        run(args("tawla", tawla.to_str().unwrap())).unwrap();
        a.widen = Some(tawla.to_str().unwrap().into());
        assert!(run(a).is_err());
        std::fs::remove_file(&path).ok();
        std::fs::remove_file(&tawla).ok();
    }

    #[test]
    fn tawla_widens_an_encoding_1_network_to_encoding_2() {
        let path =
            std::env::temp_dir().join(format!("spelbord-train-t2-{}.net", std::process::id()));
        let out = path.to_str().unwrap();
        // An encoding-1 Tawla network (the kind shipped until encoding 2).
        let narrow_path = path.with_extension("narrow.net");
        let narrow = NetFile {
            encoding: 1,
            net: Mlp::random(259, 4, 5, || 0.01),
            games_trained: 7,
            ..new_net::<TawlaRules>(4, 5)
        };
        std::fs::write(&narrow_path, narrow.to_bytes()).unwrap();
        let mut a = args("tawla", out);
        a.widen = Some(narrow_path.to_str().unwrap().into());
        a.games = 0;
        run(a.clone()).unwrap();
        let net = NetFile::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!((net.encoding, net.net.inputs()), (2, 269));
        assert_eq!(net.games_trained, 7);
        // It trains on as encoding 2.
        a.games = 2;
        a.widen = None;
        a.resume = Some(out.into());
        run(a).unwrap();
        std::fs::remove_file(&path).ok();
        std::fs::remove_file(&narrow_path).ok();
    }

    #[test]
    fn backgammon_fits_the_shipped_network_to_rollout_labels() {
        let dir = std::env::temp_dir().join(format!("spelbord-fit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let labels = dir.join("labels.txt").display().to_string();
        let out = dir.join("fit.net").display().to_string();
        crate::label::run(crate::label::LabelArgs {
            game: "backgammon".into(),
            positions: 6,
            trials: 1,
            seed: 2,
            threads: 2,
            net: None,
            out: labels.clone(),
        })
        .unwrap();
        let mut a = args("backgammon", &out);
        a.options.clear();
        a.fit = Some(labels.clone());
        a.epochs = 2;
        run(a).unwrap();
        let fitted = read(&out).unwrap();
        let shipped = load::<BackgammonRules>(None).unwrap();
        assert_ne!(fitted.net, shipped.net, "the labels moved it");
        assert_eq!(fitted.games_trained, shipped.games_trained);
        // Labels that do not read are an error, not a network.
        std::fs::write(&labels, "not a position 0.5\n").unwrap();
        let mut a = args("backgammon", &out);
        a.options.clear();
        a.fit = Some(labels);
        assert!(run(a).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
