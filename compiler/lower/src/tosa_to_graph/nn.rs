//! Import of TOSA's compute and indexing ops: matmul, NHWC conv2d, depthwise_conv2d and
//! pools (as NCHW graph ops between transposes), conv3d (a sum of conv2ds), batched
//! gather, and reverse (a gather).

use tcc_dialect_graph::ops as g;
use tcc_ir::{AttrDict, Attribute, DenseElements, Scalar, TensorType, Type, Value};

use super::{Importer, attrs};

/// NHWC -> NCHW and back.
const TO_NCHW: [i64; 4] = [0, 3, 1, 2];
const TO_NHWC: [i64; 4] = [0, 2, 3, 1];

impl Importer<'_> {
    pub(super) fn matmul(&mut self) -> Result<Value, String> {
        self.zero_point(2, "a")?;
        self.zero_point(3, "b")?;
        let (a, b) = (self.operand(0), self.operand(1));
        let (at, bt) = (self.tensor(a)?.clone(), self.tensor(b)?.clone());
        if at.rank() != 3 || bt.rank() != 3 {
            return Err("operands must be 3-D ([N, H, C] and [N, C, W])".into());
        }
        // Operands narrower than the result (i8 or i16 products summed in i32 or i64,
        // f16 ones in f32: TOSA's accumulator) are widened to it first, so nothing wraps
        // or rounds early.
        let result = self.m.value_type(self.m.result(self.anchor, 0)).as_tensor().map(|t| t.elem());
        let widen = |e: tcc_ir::ScalarType| result.filter(|&r| e.is_float() == r.is_float() && r != e);
        let a = match widen(at.elem()) {
            Some(r) => self.op_typed(&g::CAST, &[a], AttrDict::new(), vec![Type::tensor(at.shape().to_vec(), r)?]),
            None => a,
        };
        let b = match widen(bt.elem()) {
            Some(r) => self.op_typed(&g::CAST, &[b], AttrDict::new(), vec![Type::tensor(bt.shape().to_vec(), r)?]),
            None => b,
        };
        self.op(&g::MATMUL, &[a, b], AttrDict::new())
    }

    /// TOSA's pad `[top, bottom, left, right]` as graph pads `[top, left, bottom, right]`.
    fn graph_pads(&self) -> Result<Vec<i64>, String> {
        let p = self.ints_n("pad", 4)?;
        Ok(vec![p[0], p[2], p[1], p[3]])
    }

    /// A convolution's operands (input, weights, bias) and the input's and weights'
    /// types, after checking that the zero points are 0, the input and weights have
    /// `rank` dimensions and the bias one.
    fn conv_operands(&mut self, rank: usize) -> Result<(Value, Value, Value, TensorType, TensorType), String> {
        self.zero_point(3, "input")?;
        self.zero_point(4, "weight")?;
        let (x, w, bias) = (self.operand(0), self.operand(1), self.operand(2));
        let (xt, wt, bt) = (self.tensor(x)?.clone(), self.tensor(w)?.clone(), self.tensor(bias)?);
        if xt.rank() != rank || wt.rank() != rank || bt.rank() != 1 {
            return Err(format!("expected a {rank}-D input, {rank}-D weights and a 1-D bias, got {xt}, {wt} and {bt}"));
        }
        Ok((x, w, bias, xt, wt))
    }

    /// A convolution's bias for `channels` output channels: as given, or its one
    /// element broadcast.
    fn channel_bias(&mut self, bias: Value, channels: i64) -> Result<Value, String> {
        match self.tensor(bias)?.shape()[0] {
            n if n == channels => Ok(bias),
            1 => self.op(&g::BROADCAST_TO, &[bias], attrs(&[("shape", Attribute::i64_list(&[channels]))])),
            n => Err(format!("the bias has {n} elements, expected {channels} or 1")),
        }
    }

    /// `conv2d` (OHWI weights) or `depthwise_conv2d` (HWCM weights).
    pub(super) fn conv2d(&mut self, depthwise: bool) -> Result<Value, String> {
        let (x, w, bias, _, wt) = self.conv_operands(4)?;
        let (channels, groups, w) = if depthwise {
            // [KH, KW, C, M] -> [C, M, KH, KW] -> [C*M, 1, KH, KW]: output c*M + m reads input c.
            let s = wt.shape();
            let (c, mult) = (s[2], s[3]);
            let w = self.transpose(w, &[2, 3, 0, 1])?;
            (c * mult, c, self.reshape(w, &[c * mult, 1, s[0], s[1]])?)
        } else {
            (wt.shape()[0], 1, self.transpose(w, &TO_NCHW)?)
        };
        let bias = self.channel_bias(bias, channels)?;
        let conv_attrs = attrs(&[
            ("strides", Attribute::i64_list(&self.ints_n("stride", 2)?)),
            ("pads", Attribute::i64_list(&self.graph_pads()?)),
            ("dilations", Attribute::i64_list(&self.ints_n("dilation", 2)?)),
            ("groups", Attribute::i64(groups)),
        ]);
        let x = self.transpose(x, &TO_NCHW)?;
        let y = self.op(&g::CONV2D, &[x, w, bias], conv_attrs)?;
        self.transpose(y, &TO_NHWC)
    }

    /// `conv3d` (NDHWC input, ODHWI weights): for each kernel depth `kd`, the input depths
    /// it reads (`od * stride + kd * dilation` of the depth-padded input, for every output
    /// depth `od`) are a strided slice, folded into the batch and convolved in 2-D with
    /// the weights of that depth; the sum over `kd` (the bias added once) is the output.
    /// The 2-D convolutions take the blocked templates like any other.
    pub(super) fn conv3d(&mut self) -> Result<Value, String> {
        let (x, w, bias, xt, wt) = self.conv_operands(5)?;
        let [n, id, ih, iw, ic] = <[i64; 5]>::try_from(xt.shape()).expect("rank 5");
        let [oc, kd, kh, kw, wic] = <[i64; 5]>::try_from(wt.shape()).expect("rank 5");
        if wic != ic {
            return Err(format!("weights {wt} do not fit the input {xt} (ODHWI weights, an NDHWC input)"));
        }
        let (pad, stride, dilation) = (self.ints_n("pad", 6)?, self.ints_n("stride", 3)?, self.ints_n("dilation", 3)?);
        if pad.iter().any(|&p| p < 0) || stride.iter().chain(&dilation).any(|&s| s < 1) {
            return Err(format!(
                "pads must be non-negative, strides and dilations positive: {pad:?} {stride:?} {dilation:?}"
            ));
        }
        let depth = id + pad[0] + pad[1];
        let reach = (kd - 1) * dilation[0] + 1;
        if kd < 1 || depth < reach {
            return Err(format!(
                "the kernel's {kd} depths (dilation {}) do not fit the padded input depth {depth}",
                dilation[0]
            ));
        }
        let od = (depth - reach) / stride[0] + 1;
        let bias = self.channel_bias(bias, oc)?;
        let x = if pad[0] + pad[1] > 0 {
            let depth_pads = attrs(&[
                ("low", Attribute::i64_list(&[0, pad[0], 0, 0, 0])),
                ("high", Attribute::i64_list(&[0, pad[1], 0, 0, 0])),
            ]);
            self.op(&g::PAD, &[x], depth_pads)?
        } else {
            x
        };
        let conv_attrs = attrs(&[
            ("strides", Attribute::i64_list(&stride[1..])),
            ("pads", Attribute::i64_list(&[pad[2], pad[4], pad[3], pad[5]])),
            ("dilations", Attribute::i64_list(&dilation[1..])),
            ("groups", Attribute::i64(1)),
        ]);
        let mut sum: Option<Value> = None;
        for k in 0..kd {
            let slice = attrs(&[
                ("starts", Attribute::i64_list(&[0, k * dilation[0], 0, 0, 0])),
                ("sizes", Attribute::i64_list(&[n, od, ih, iw, ic])),
                ("steps", Attribute::i64_list(&[1, stride[0], 1, 1, 1])),
            ]);
            let xk = self.op(&g::SLICE, &[x], slice)?;
            let xk = self.reshape(xk, &[n * od, ih, iw, ic])?;
            let xk = self.transpose(xk, &TO_NCHW)?;
            let wk = attrs(&[
                ("starts", Attribute::i64_list(&[0, k, 0, 0, 0])),
                ("sizes", Attribute::i64_list(&[oc, 1, kh, kw, ic])),
            ]);
            let wk = self.op(&g::SLICE, &[w], wk)?;
            let wk = self.reshape(wk, &[oc, kh, kw, ic])?;
            let wk = self.transpose(wk, &TO_NCHW)?;
            let operands = if sum.is_none() { vec![xk, wk, bias] } else { vec![xk, wk] };
            let yk = self.op(&g::CONV2D, &operands, conv_attrs.clone())?;
            sum = Some(match sum {
                Some(s) => self.op(&g::ADD, &[s, yk], AttrDict::new())?,
                None => yk,
            });
        }
        let y = self.transpose(sum.expect("a kernel depth"), &TO_NHWC)?;
        let oshape = self.tensor(y)?.shape().to_vec();
        self.reshape(y, &[n, od, oshape[1], oshape[2], oc])
    }

    /// `max_pool2d` (padding never wins) or `avg_pool2d` (the divisor counts the
    /// window's input cells only).
    pub(super) fn pool(&mut self, is_max: bool) -> Result<Value, String> {
        if is_max && !self.nan_propagates()? {
            return Err("nan_mode = \"IGNORE\" is not supported on max_pool2d".into());
        }
        if !is_max {
            self.zero_point(1, "input")?;
            self.zero_point(2, "output")?;
        }
        let x = self.operand(0);
        if self.tensor(x)?.rank() != 4 {
            return Err("the input must be 4-D (NHWC)".into());
        }
        let mut pool_attrs = attrs(&[
            ("kernel", Attribute::i64_list(&self.ints_n("kernel", 2)?)),
            ("strides", Attribute::i64_list(&self.ints_n("stride", 2)?)),
            ("pads", Attribute::i64_list(&self.graph_pads()?)),
        ]);
        if !is_max {
            pool_attrs.set("count_include_pad", Attribute::Bool(false));
        }
        let x = self.transpose(x, &TO_NCHW)?;
        let y = self.op(if is_max { &g::MAX_POOL2D } else { &g::AVG_POOL2D }, &[x], pool_attrs)?;
        self.transpose(y, &TO_NHWC)
    }

    /// `gather`: values [N, K, C], indices [N, W] -> [N, W, C], as one `graph.gather`
    /// on values flattened to [N*K, C] with indices offset by n*K.
    pub(super) fn gather(&mut self) -> Result<Value, String> {
        let (values, indices) = (self.operand(0), self.operand(1));
        let (vt, it) = (self.tensor(values)?, self.tensor(indices)?);
        if vt.rank() != 3 || it.rank() != 2 || it.shape()[0] != vt.shape()[0] || !it.elem().is_integer() {
            return Err(format!("expected values [N, K, C] and integer indices [N, W], got {vt} and {it}"));
        }
        let (n, k, c) = (vt.shape()[0], vt.shape()[1], vt.shape()[2]);
        let flat = self.reshape(values, &[n * k, c])?;
        let indices = if n > 1 {
            let offsets: Vec<Scalar> = (0..n).map(|i| Scalar::Int(i * k)).collect();
            let ty = TensorType::new(vec![n, 1], it.elem())?;
            let offsets = self.constant(DenseElements::from_scalars(ty, &offsets)?);
            self.op(&g::ADD, &[indices, offsets], AttrDict::new())?
        } else {
            indices
        };
        self.op(&g::GATHER, &[flat, indices], attrs(&[("axis", Attribute::i64(0))]))
    }

    /// `tosa.reverse`: a gather along `axis` of the indices `n - 1, .., 0`.
    pub(super) fn reverse(&mut self) -> Result<Value, String> {
        let x = self.operand(0);
        let shape = self.tensor(x)?.shape().to_vec();
        let axis = self.int("axis")?;
        if usize::try_from(axis).ok().is_none_or(|a| a >= shape.len()) {
            return Err(format!("axis {axis} is out of range for rank {}", shape.len()));
        }
        self.flip(x, axis)
    }

    /// `x` with dimension `axis` (in range) in reverse order.
    fn flip(&mut self, x: Value, axis: i64) -> Result<Value, String> {
        let n = self.tensor(x)?.shape()[axis as usize];
        let indices: Vec<Scalar> = (0..n).rev().map(Scalar::Int).collect();
        let ty = TensorType::new(vec![n], tcc_ir::ScalarType::I64)?;
        let indices = self.constant(DenseElements::from_scalars(ty, &indices)?);
        self.op(&g::GATHER, &[x, indices], attrs(&[("axis", Attribute::i64(axis))]))
    }

    /// `transpose_conv2d` (NHWC input, OHWI weights): each input cell adds its products
    /// with the kernel at `cell x stride + out_pad + tap`, which is a `conv2d` over the
    /// input with `stride - 1` zeros between its cells, padded by `kernel - 1 + out_pad` on
    /// each side, with the kernel flipped (`out[y] = sum_k x[(y - pad_top - k) / s] w[k]`,
    /// the terms with a fraction being the inserted zeros).
    pub(super) fn transpose_conv2d(&mut self) -> Result<Value, String> {
        let (x, w, bias, xt, wt) = self.conv_operands(4)?;
        let [n, ih, iw, ic] = [xt.shape()[0], xt.shape()[1], xt.shape()[2], xt.shape()[3]];
        let [oc, kh, kw, wic] = [wt.shape()[0], wt.shape()[1], wt.shape()[2], wt.shape()[3]];
        if wic != ic || ih == 0 || iw == 0 {
            return Err(format!("weights {wt} do not fit the input {xt} (OHWI weights, a non-empty NHWC input)"));
        }
        let stride = self.ints_n("stride", 2)?;
        let out_pad = self.ints_n("out_pad", 4)?;
        if stride.iter().any(|&s| s < 1) {
            return Err(format!("strides must be positive, got {stride:?}"));
        }
        // Graph pads [top, left, bottom, right] from TOSA's out_pad [top, bottom, left, right].
        let pads = [kh - 1 + out_pad[0], kw - 1 + out_pad[2], kh - 1 + out_pad[1], kw - 1 + out_pad[3]];
        if pads.iter().any(|&p| p < 0) {
            return Err(format!("an out_pad below 1 - kernel size is not supported, got {out_pad:?}"));
        }
        let x = self.transpose(x, &TO_NCHW)?;
        let x = if stride != [1, 1] {
            let (sy, sx) = (stride[0], stride[1]);
            let cells = self.reshape(x, &[n, ic, ih, 1, iw, 1])?;
            let gaps = attrs(&[
                ("low", Attribute::i64_list(&[0; 6])),
                ("high", Attribute::i64_list(&[0, 0, 0, sy - 1, 0, sx - 1])),
            ]);
            let spaced = self.op(&g::PAD, &[cells], gaps)?;
            let spaced = self.reshape(spaced, &[n, ic, ih * sy, iw * sx])?;
            let sizes = [n, ic, (ih - 1) * sy + 1, (iw - 1) * sx + 1];
            let cut = attrs(&[("starts", Attribute::i64_list(&[0; 4])), ("sizes", Attribute::i64_list(&sizes))]);
            self.op(&g::SLICE, &[spaced], cut)?
        } else {
            x
        };
        let w = self.flip(w, 1)?;
        let w = self.flip(w, 2)?;
        let w = self.transpose(w, &TO_NCHW)?;
        let bias = self.channel_bias(bias, oc)?;
        let conv_attrs = attrs(&[
            ("strides", Attribute::i64_list(&[1, 1])),
            ("pads", Attribute::i64_list(&pads)),
            ("dilations", Attribute::i64_list(&[1, 1])),
            ("groups", Attribute::i64(1)),
        ]);
        let y = self.op(&g::CONV2D, &[x, w, bias], conv_attrs)?;
        self.transpose(y, &TO_NHWC)
    }
}
