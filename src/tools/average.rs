//! `fivefold-tools average`: the weighted mean of network files, weight by weight (a
//! *weight soup*, [`Net::mean`]), written in the format the engine reads.

use crate::nn::net::Net;
use anyhow::Result;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "\
The networks must be for one rule and have a policy mix alike (a network and others
fine-tuned from it, say). Each table entry of the result is the weighted mean rounded to
the nearest integer, each head number the weighted mean. The result loads as any network
file does (FIVEFOLD_NET, docs/network.md).

Example:
  fivefold-tools average --out mean.fnet src/nn/nets/exact5.fnet candidate.fnet --weights 1,1")]
pub struct Options {
    /// The network file to write
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The network files to average (two or more; one alone is copied)
    #[arg(value_name = "NET", required = true, num_args = 1..)]
    pub nets: Vec<PathBuf>,
    /// One weight per network, separated by commas [default: equal weights]
    #[arg(long, value_name = "W,W,...", value_delimiter = ',', value_parser = weight)]
    pub weights: Vec<f64>,
}

fn weight(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a weight (a number, 0 or more)")),
    }
}

pub fn run(opts: &Options) -> Result<()> {
    let nets = opts
        .nets
        .iter()
        .map(|p| Net::load(p))
        .collect::<Result<Vec<_>>>()?;
    let weights = if opts.weights.is_empty() {
        vec![1.0; nets.len()]
    } else {
        opts.weights.clone()
    };
    let mean = Net::mean(&nets, &weights)?;
    mean.save(&opts.out)?;
    let total: f64 = weights.iter().sum();
    let shares: Vec<String> = weights
        .iter()
        .map(|w| format!("{:.3}", w / total))
        .collect();
    eprintln!(
        "{}: the mean of {} {} networks, weights {}",
        opts.out.display(),
        nets.len(),
        mean.rule.name(),
        shares.join(",")
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn weights_are_numbers_not_below_zero() {
        assert_eq!(weight("1.5"), Ok(1.5));
        assert_eq!(weight("0"), Ok(0.0));
        for bad in ["", "x", "-1", "inf", "NaN"] {
            assert!(weight(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_built_in_network_averaged_with_itself_is_itself() -> Result<()> {
        let dir = std::env::temp_dir().join(format!("fivefold-average-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let a = PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/nn/nets/exact5.fnet"
        ));
        let bytes = std::fs::read(&a).context("the built-in exact-five network")?;
        let out = dir.join("same.fnet");
        let r = run(&Options {
            out: out.clone(),
            nets: vec![a.clone(), a.clone()],
            weights: vec![2.0, 1.0],
        });
        let same = std::fs::read(&out);
        let bad = run(&Options {
            out: dir.join("bad.fnet"),
            nets: vec![a.clone(), dir.join("missing.fnet")],
            weights: vec![],
        });
        std::fs::remove_dir_all(&dir)?;
        r?;
        assert_eq!(same?, bytes);
        let e = format!("{:#}", bad.unwrap_err());
        assert!(e.contains("missing.fnet"), "{e}");
        Ok(())
    }
}
