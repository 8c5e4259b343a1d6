#!/usr/bin/env python3
"""Exports tcc's model corpus from PyTorch to TOSA MLIR with torch-mlir.

Each model gets random weights from a fixed seed, one random input, and PyTorch's output
on it, written as

    <out>/<name>.mlir        TOSA, as `torch_mlir.fx.export_and_import(..., output_type="tosa")`
                             prints it (weights as dense_resource blobs)
    <out>/<name>.in0.npy     the input
    <out>/<name>.out0.npy    PyTorch's output (float32)

Usage (any Python with torch, torchvision and torch-mlir; keep that venv outside the
repository):

    python benchmarks/models/export.py                 # small variants -> benchmarks/models/small
    python benchmarks/models/export.py --full --out DIR   # full-size models (hundreds of MB)
    python benchmarks/models/export.py --only resnet18,bert_layer

The small variants (checked in, a few MB in all) keep each architecture's structure
with reduced widths and input sizes; the full-size ones are the torchvision models and
a BERT-base encoder layer, made on demand for benchmarks. `attention_qkv` (separate query, key and value
projections) and `googlenet` (Inception blocks: parallel 1x1 convolutions of one input)
are there for the rewrite search's merges. Everything runs on the CPU in
one thread, so outputs are reproducible for a given torch version.
"""

import argparse
import math
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torchvision
from torchvision.models.resnet import BasicBlock, Bottleneck, ResNet

HERE = os.path.dirname(os.path.abspath(__file__))

torch.set_num_threads(1)


class SmallResNet(ResNet):
    """torchvision's ResNet with every stage's width divided by `div`."""

    def __init__(self, block, layers, div, num_classes=10):
        super().__init__(block, layers, num_classes=num_classes)
        widths = [64 // div, 128 // div, 256 // div, 512 // div]
        self.inplanes = widths[0]
        self.conv1 = nn.Conv2d(3, widths[0], kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(widths[0])
        self.layer1 = self._make_layer(block, widths[0], layers[0])
        self.layer2 = self._make_layer(block, widths[1], layers[1], stride=2)
        self.layer3 = self._make_layer(block, widths[2], layers[2], stride=2)
        self.layer4 = self._make_layer(block, widths[3], layers[3], stride=2)
        self.fc = nn.Linear(widths[3] * block.expansion, num_classes)


def small_vgg11():
    cfg = [8, "M", 16, "M", 16, 16, "M", 32, 32, "M", 32, 32, "M"]
    features = torchvision.models.vgg.make_layers(cfg, batch_norm=False)
    return nn.Sequential(features, nn.Flatten(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))


def small_mobilenet_v2():
    """MobileNetV2 at width 0.25 with one block per stage and a 128-wide head."""
    from torchvision.ops.misc import Conv2dNormActivation

    setting = [[1, 16, 1, 1], [6, 24, 1, 2], [6, 32, 2, 2], [6, 64, 1, 2], [6, 96, 1, 1], [6, 160, 1, 2], [6, 320, 1, 1]]
    model = torchvision.models.mobilenet_v2(width_mult=0.25, num_classes=10, inverted_residual_setting=setting)
    model.features[-1] = Conv2dNormActivation(80, 128, kernel_size=1, activation_layer=nn.ReLU6)
    model.classifier[-1] = nn.Linear(128, 10)
    return model


def small_squeezenet():
    from torchvision.models.squeezenet import Fire

    return nn.Sequential(
        nn.Conv2d(3, 16, kernel_size=7, stride=2),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=False),
        Fire(16, 4, 8, 8),
        Fire(16, 4, 8, 8),
        nn.MaxPool2d(kernel_size=3, stride=2),
        Fire(16, 8, 16, 16),
        nn.Dropout(p=0.5),
        nn.Conv2d(32, 10, kernel_size=1),
        nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.Flatten(),
    )


class GroupNormBlock(nn.Module):
    def __init__(self, c_in, c_out, groups):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.gn = nn.GroupNorm(groups, c_out)

    def forward(self, x):
        return torch.relu(self.gn(self.conv(x)))


def bert_layer(hidden, heads, ffn):
    """A BERT encoder layer: post-LN self-attention and GELU feed-forward."""
    return nn.TransformerEncoderLayer(hidden, heads, ffn, dropout=0.0, activation="gelu", batch_first=True)


class SelfAttention(nn.Module):
    """BERT's self-attention block as Hugging Face writes it: separate query, key and
    value projections of the same input (three matmuls the rewrite search may merge),
    scaled dot-product attention, the output projection, residual and layer norm."""

    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, hidden)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, x):
        b, s, h = x.shape
        d = h // self.heads

        def heads(t):
            return t.view(b, s, self.heads, d).transpose(1, 2)

        q, k, v = heads(self.query(x)), heads(self.key(x)), heads(self.value(x))
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d), dim=-1)
        ctx = (att @ v).transpose(1, 2).reshape(b, s, h)
        return self.norm(x + self.out(ctx))


def small_googlenet():
    """GoogLeNet's structure at a small width: a stem conv, two Inception blocks (each
    with three 1x1 convolutions of the same input), pooling."""
    from torchvision.models.googlenet import BasicConv2d, Inception

    return nn.Sequential(
        BasicConv2d(3, 32, kernel_size=3, padding=1),
        Inception(32, 16, 16, 24, 4, 8, 8),
        Inception(56, 24, 16, 32, 8, 16, 16),
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.Flatten(),
    )


class RotaryAttention(nn.Module):
    """Llama's self-attention: query, key and value projections, rotary position
    embeddings (cos and sin of position x frequency, rotating pairs of channels) on
    queries and keys, scaled dot-product attention and the output projection. The
    positions are the sequence's, so the export's sin and cos are of constants."""

    def __init__(self, hidden, heads, base=10000.0):
        super().__init__()
        self.heads = heads
        d = hidden // heads
        self.q = nn.Linear(hidden, hidden, bias=False)
        self.k = nn.Linear(hidden, hidden, bias=False)
        self.v = nn.Linear(hidden, hidden, bias=False)
        self.o = nn.Linear(hidden, hidden, bias=False)
        self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, d, 2).float() / d)))

    def forward(self, x):
        b, s, h = x.shape
        d = h // self.heads

        def heads(t):
            return t.view(b, s, self.heads, d).transpose(1, 2)

        freqs = torch.outer(torch.arange(s, dtype=x.dtype), self.inv_freq)
        emb = torch.cat([freqs, freqs], dim=-1)
        cos, sin = emb.cos(), emb.sin()

        def rotate(t):
            t1, t2 = t[..., : d // 2], t[..., d // 2 :]
            return t * cos + torch.cat([-t2, t1], dim=-1) * sin

        q, k, v = rotate(heads(self.q(x))), rotate(heads(self.k(x))), heads(self.v(x))
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d), dim=-1)
        return self.o((att @ v).transpose(1, 2).reshape(b, s, h))


class TimestepEmbedding(nn.Module):
    """Stable Diffusion's timestep embedding: cos and sin of the timesteps (the input)
    times geometric frequencies, then Linear, SiLU, Linear. The angles reach about a
    thousand radians and are computed when the model runs."""

    def __init__(self, channels, dim):
        super().__init__()
        half = channels // 2
        self.register_buffer("freqs", torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half))
        self.l1 = nn.Linear(channels, dim)
        self.l2 = nn.Linear(dim, dim)

    def forward(self, t):
        args = t[:, None] * self.freqs[None]
        emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
        return self.l2(nn.functional.silu(self.l1(emb)))


class LoraLinear(nn.Module):
    """A linear layer with a low-rank adapter kept beside its weight, as a fine-tuned
    model carries it before merging: x @ W + x @ (A @ B). The best graph is one matmul
    with W + A @ B folded at compile time (the rewrite search's LoRA merge)."""

    def __init__(self, dim, rank):
        super().__init__()
        self.w = nn.Parameter(torch.randn(dim, dim) / math.sqrt(dim))
        self.a = nn.Parameter(torch.randn(dim, rank) / math.sqrt(dim))
        self.b = nn.Parameter(torch.randn(rank, dim) / math.sqrt(rank))

    def forward(self, x):
        return x @ self.w + x @ (self.a @ self.b)


class LoraAdapter(LoraLinear):
    """The same layer as a LoRA adapter computes it, x @ W + (x @ A) @ B (the update
    never formed): merging it into one matmul needs associativity first, a step that
    alone costs more (equality saturation reaches it; a backtracking search does not)."""

    def forward(self, x):
        return x @ self.w + (x @ self.a) @ self.b


class RepVGGBlock(nn.Module):
    """A RepVGG block as it trains (and as a checkpoint before re-parameterization
    carries it): a 3x3 and a 1x1 convolution of the same input, each with batch norm,
    summed, then ReLU (no identity branch: the channel count changes). The best graph
    is one 3x3 convolution whose filter is the 3x3 one plus the 1x1 one padded, and
    whose bias is the sum of the folded batch norms (RepVGG's structural
    re-parameterization, which generated rules of the image world find: kernel
    enlargement and distributivity of convolution over addition)."""

    def __init__(self, cin, cout):
        super().__init__()
        self.k3 = nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout))
        self.k1 = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        return torch.relu(self.k3(x) + self.k1(x))


def timesteps(shape):
    """Diffusion timesteps: uniform in [0, 1000)."""
    return torch.rand(shape) * 1000.0


# name -> (small model and input shape, full model and input shape); a model may give
# a third element, the function making its input from the shape (default: normal).
MODELS = {
    "resnet18": (lambda: (SmallResNet(BasicBlock, [2, 2, 2, 2], 16), (1, 3, 32, 32)),
                 lambda: (torchvision.models.resnet18(), (1, 3, 224, 224))),
    "resnet50": (lambda: (SmallResNet(Bottleneck, [3, 4, 6, 3], 32), (1, 3, 32, 32)),
                 lambda: (torchvision.models.resnet50(), (1, 3, 224, 224))),
    "mobilenet_v2": (lambda: (small_mobilenet_v2(), (1, 3, 32, 32)),
                     lambda: (torchvision.models.mobilenet_v2(), (1, 3, 224, 224))),
    "squeezenet1_0": (lambda: (small_squeezenet(), (1, 3, 48, 48)),
                      lambda: (torchvision.models.squeezenet1_0(), (1, 3, 224, 224))),
    "vgg11": (lambda: (small_vgg11(), (1, 3, 32, 32)),
              lambda: (torchvision.models.vgg11(), (1, 3, 224, 224))),
    "bert_layer": (lambda: (bert_layer(64, 4, 256), (1, 16, 64)),
                   lambda: (bert_layer(768, 12, 3072), (1, 128, 768))),
    "attention_qkv": (lambda: (SelfAttention(64, 4), (1, 16, 64)),
                      lambda: (SelfAttention(768, 12), (1, 128, 768))),
    "googlenet": (lambda: (small_googlenet(), (1, 3, 24, 24)),
                  lambda: (torchvision.models.googlenet(aux_logits=False, init_weights=True, transform_input=False),
                           (1, 3, 224, 224))),
    "groupnorm_block": (lambda: (GroupNormBlock(8, 16, 4), (2, 8, 12, 12)),
                        lambda: (GroupNormBlock(64, 128, 32), (1, 64, 56, 56))),
    "rotary_attention": (lambda: (RotaryAttention(64, 4), (1, 16, 64)),
                         lambda: (RotaryAttention(2048, 16), (1, 128, 2048))),
    "timestep_embedding": (lambda: (TimestepEmbedding(32, 64), (4,), timesteps),
                           lambda: (TimestepEmbedding(320, 1280), (2,), timesteps)),
    "lora_linear": (lambda: (LoraLinear(64, 4), (1, 16, 64)),
                    lambda: (LoraLinear(512, 16), (1, 256, 512))),
    "lora_adapter": (lambda: (LoraAdapter(64, 4), (1, 16, 64)),
                     lambda: (LoraAdapter(512, 16), (1, 256, 512))),
    "repvgg_block": (lambda: (RepVGGBlock(16, 32), (1, 16, 20, 20)),
                     lambda: (RepVGGBlock(64, 128), (1, 64, 56, 56))),
}


def build(name, full):
    """The model (in eval mode, fixed random weights) and its input."""
    torch.manual_seed(1234)
    model, shape, *make_input = MODELS[name][1 if full else 0]()
    model = model.eval()
    with torch.no_grad():
        # Non-trivial batch-norm statistics, so folding them into convs is exercised.
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
        x = make_input[0](shape) if make_input else torch.randn(shape)
    return model, x


def export(name, full, out):
    from torch_mlir import fx

    model, x = build(name, full)
    shape = list(x.shape)
    with torch.no_grad():
        y = model(x)
    module = fx.export_and_import(model, x, output_type="tosa", func_name="main")
    path = os.path.join(out, f"{name}.mlir")
    with open(path, "w") as f:
        # str(module) leaves the weight blobs out; print them.
        module.operation.print(file=f, large_elements_limit=None)
    np.save(os.path.join(out, f"{name}.in0.npy"), x.numpy())
    np.save(os.path.join(out, f"{name}.out0.npy"), y.numpy().astype(np.float32))
    print(f"{name}: {os.path.getsize(path) / 1e6:.2f} MB, input {list(shape)}, output {list(y.shape)}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--full", action="store_true", help="full-size models instead of the small variants")
    p.add_argument("--out", help="output directory (default: benchmarks/models/small for small variants)")
    p.add_argument("--only", help="comma-separated model names")
    a = p.parse_args()
    out = a.out or (None if a.full else os.path.join(HERE, "small"))
    if out is None:
        sys.exit("--full needs --out DIR (full-size exports stay out of the repository)")
    os.makedirs(out, exist_ok=True)
    names = a.only.split(",") if a.only else list(MODELS)
    for n in names:
        if n not in MODELS:
            sys.exit(f"unknown model {n!r}; known: {', '.join(MODELS)}")
        export(n, a.full, out)


if __name__ == "__main__":
    main()
