//! A small multilayer perceptron: inputs, one hidden layer of sigmoid
//! units, sigmoid outputs; f32, hand-written (the first layer adds only the
//! weight rows of non-zero inputs, which the sparse board encodings make
//! several times faster than a dense product).

/// The weights of a network with one hidden layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    inputs: usize,
    hidden: usize,
    outputs: usize,
    /// Input-major: row i holds input i's weight to every hidden unit.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Output-major: row k holds every hidden unit's weight to output k.
    w2: Vec<f32>,
    b2: Vec<f32>,
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Scratch space for one evaluation (the hidden activations).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    hidden: Vec<f32>,
}

impl Mlp {
    /// A network of these sizes with small weights drawn from `next_uniform`
    /// (values in -1..1), scaled by the fan-in.
    pub fn random(
        inputs: usize,
        hidden: usize,
        outputs: usize,
        mut next_uniform: impl FnMut() -> f32,
    ) -> Self {
        let s1 = 1.0 / (inputs as f32).sqrt();
        let s2 = 1.0 / (hidden as f32).sqrt();
        Mlp {
            inputs,
            hidden,
            outputs,
            w1: (0..inputs * hidden).map(|_| s1 * next_uniform()).collect(),
            b1: vec![0.0; hidden],
            w2: (0..outputs * hidden).map(|_| s2 * next_uniform()).collect(),
            b2: vec![0.0; outputs],
        }
    }

    /// A network from its parts; `None` when a length does not fit the sizes.
    pub fn from_parts(
        sizes: [usize; 3],
        w1: Vec<f32>,
        b1: Vec<f32>,
        w2: Vec<f32>,
        b2: Vec<f32>,
    ) -> Option<Self> {
        let [inputs, hidden, outputs] = sizes;
        (w1.len() == inputs * hidden
            && b1.len() == hidden
            && w2.len() == outputs * hidden
            && b2.len() == outputs)
            .then_some(Mlp {
                inputs,
                hidden,
                outputs,
                w1,
                b1,
                w2,
                b2,
            })
    }

    /// Input, hidden and output sizes.
    pub fn sizes(&self) -> [usize; 3] {
        [self.inputs, self.hidden, self.outputs]
    }

    /// The four parameter arrays in file order: w1, b1, w2, b2.
    pub fn parts(&self) -> [&[f32]; 4] {
        [&self.w1, &self.b1, &self.w2, &self.b2]
    }

    /// The same network taking `inputs` inputs (no fewer than it has): the
    /// added inputs come last, with zero weights, so every output stays as
    /// it was.
    pub fn widened(&self, inputs: usize) -> Mlp {
        let mut net = self.clone();
        net.inputs = inputs.max(self.inputs);
        net.w1.resize(net.inputs * net.hidden, 0.0);
        net
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Number of outputs.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// Evaluates one input vector into `out` (length `outputs`), leaving the
    /// hidden activations in `scratch`.
    pub fn forward(&self, x: &[f32], scratch: &mut Scratch, out: &mut [f32]) {
        let h = &mut scratch.hidden;
        h.clear();
        h.extend_from_slice(&self.b1);
        for (i, &xi) in x.iter().enumerate().take(self.inputs) {
            if xi != 0.0 {
                let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
                for (hj, &w) in h.iter_mut().zip(row) {
                    *hj += xi * w;
                }
            }
        }
        for hj in h.iter_mut() {
            *hj = sigmoid(*hj);
        }
        for (k, o) in out.iter_mut().enumerate().take(self.outputs) {
            let row = &self.w2[k * self.hidden..(k + 1) * self.hidden];
            let s: f32 = row.iter().zip(h.iter()).map(|(w, h)| w * h).sum();
            *o = sigmoid(s + self.b2[k]);
        }
    }

    /// Evaluates a batch: `xs` holds `n` input vectors one after another,
    /// `outs` receives `n` output vectors.
    pub fn forward_batch(&self, xs: &[f32], scratch: &mut Scratch, outs: &mut [f32]) {
        for (x, out) in xs
            .chunks_exact(self.inputs)
            .zip(outs.chunks_exact_mut(self.outputs))
        {
            self.forward(x, scratch, out);
        }
    }

    /// One TD(0) / supervised step: moves the outputs for `x` towards
    /// `target` by gradient descent on the squared error with step `alpha`.
    /// `y` and `scratch` must hold this network's forward pass of `x`.
    pub fn learn(&mut self, x: &[f32], scratch: &Scratch, y: &[f32], target: &[f32], alpha: f32) {
        let h = &scratch.hidden;
        let mut grad_h = vec![0.0f32; self.hidden];
        for k in 0..self.outputs {
            let delta = (target[k] - y[k]) * y[k] * (1.0 - y[k]);
            if delta == 0.0 {
                continue;
            }
            let row = &mut self.w2[k * self.hidden..(k + 1) * self.hidden];
            for ((w, g), &hj) in row.iter_mut().zip(grad_h.iter_mut()).zip(h) {
                *g += delta * *w;
                *w += alpha * delta * hj;
            }
            self.b2[k] += alpha * delta;
        }
        for (g, &hj) in grad_h.iter_mut().zip(h) {
            *g *= hj * (1.0 - hj) * alpha;
        }
        for (b, g) in self.b1.iter_mut().zip(&grad_h) {
            *b += g;
        }
        for (i, &xi) in x.iter().enumerate().take(self.inputs) {
            if xi != 0.0 {
                let row = &mut self.w1[i * self.hidden..(i + 1) * self.hidden];
                for (w, g) in row.iter_mut().zip(&grad_h) {
                    *w += xi * g;
                }
            }
        }
    }

    /// Adds to `grads` (one array per output, each as long as all the
    /// parameters in file order) the gradient of every output at `x`;
    /// used for eligibility traces.
    pub fn add_output_gradients(
        &self,
        x: &[f32],
        scratch: &Scratch,
        y: &[f32],
        grads: &mut [Vec<f32>],
    ) {
        let h = &scratch.hidden;
        let (n1, nb1, n2) = (self.w1.len(), self.b1.len(), self.w2.len());
        for (k, g) in grads.iter_mut().enumerate().take(self.outputs) {
            let dy = y[k] * (1.0 - y[k]);
            let w2k = &self.w2[k * self.hidden..(k + 1) * self.hidden];
            for j in 0..self.hidden {
                let gh = dy * w2k[j] * h[j] * (1.0 - h[j]);
                if gh == 0.0 {
                    continue;
                }
                for (i, &xi) in x.iter().enumerate().take(self.inputs) {
                    if xi != 0.0 {
                        g[i * self.hidden + j] += gh * xi;
                    }
                }
                g[n1 + j] += gh;
                g[n1 + nb1 + k * self.hidden + j] += dy * h[j];
            }
            g[n1 + nb1 + n2 + k] += dy;
        }
    }

    /// Adds `scale * delta[k]` times trace k to the parameters, for each output k.
    pub fn apply_traces(&mut self, traces: &[Vec<f32>], delta: &[f32], scale: f32) {
        for (trace, &d) in traces.iter().zip(delta) {
            let s = scale * d;
            if s == 0.0 {
                continue;
            }
            let mut t = trace.iter();
            for p in self
                .w1
                .iter_mut()
                .chain(self.b1.iter_mut())
                .chain(self.w2.iter_mut())
                .chain(self.b2.iter_mut())
            {
                *p += s * t.next().copied().unwrap_or(0.0);
            }
        }
    }

    /// Number of parameters.
    pub fn parameter_count(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Mlp {
        let mut v = 0.0f32;
        Mlp::random(6, 4, 2, || {
            v = (v + 0.37) % 2.0;
            v - 1.0
        })
    }

    #[test]
    fn learning_moves_outputs_towards_the_target() {
        let mut net = tiny();
        let x = [1.0, 0.0, 0.5, 0.0, 0.0, 1.0];
        let mut s = Scratch::default();
        let mut y = [0.0; 2];
        net.forward(&x, &mut s, &mut y);
        let before = y;
        for _ in 0..200 {
            net.forward(&x, &mut s, &mut y);
            let y0 = y;
            net.learn(&x, &s, &y0, &[1.0, 0.0], 0.5);
        }
        net.forward(&x, &mut s, &mut y);
        assert!(
            y[0] > before[0] + 0.2 && y[1] < before[1] - 0.2,
            "{before:?} -> {y:?}"
        );
    }

    #[test]
    fn traces_of_one_step_equal_the_plain_gradient_step() {
        let x = [1.0, 0.0, 0.5, 0.0, 0.0, 1.0];
        let target = [0.9, 0.2];
        let mut a = tiny();
        let mut b = tiny();
        let mut s = Scratch::default();
        let mut y = [0.0; 2];
        a.forward(&x, &mut s, &mut y);
        a.learn(&x, &s, &y, &target, 0.1);
        let mut traces = vec![vec![0.0; b.parameter_count()]; 2];
        b.forward(&x, &mut s, &mut y);
        b.add_output_gradients(&x, &s, &y, &mut traces);
        let delta = [target[0] - y[0], target[1] - y[1]];
        b.apply_traces(&traces, &delta, 0.1);
        for (pa, pb) in a.parts().iter().zip(b.parts()) {
            for (u, v) in pa.iter().zip(pb.iter()) {
                assert!((u - v).abs() < 1e-5, "{u} {v}");
            }
        }
    }
}
