"""A small neural network in plain numpy: what Deep CFR's advantage networks are made of.

:class:`MLP` is a multilayer perceptron -- linear layers with ReLU between them
and a linear output -- small enough to read in one sitting: :meth:`MLP.forward`
computes the outputs, :meth:`MLP.gradients` the weighted squared error and its
gradient by backpropagation, and :func:`train` runs Adam (Kingma and Ba, 2015)
on it.  Nothing here knows about games: inputs are feature vectors, targets
are vectors, and a mask says which outputs count (the legal actions).

Why numpy and not a deep-learning library: the networks Deep CFR needs on the
course's games have a few thousand weights, which numpy trains in well under
a second on a laptop's CPU; PyTorch (with its CUDA wheels) would be a
gigabyte-sized dependency for that, and scikit-learn's ``MLPRegressor`` takes
no per-sample weights (Deep CFR weighs iteration t's samples by t).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from numbers import Integral

import numpy as np
from threadpoolctl import threadpool_limits

from ..core.types import BoolArray, FloatArray

__all__ = ["MAX_PARAMETERS", "MLP", "Adam", "one_blas_thread", "train"]

#: The most parameters an :class:`MLP` may have (2 GiB of float64), checked before allocating.
MAX_PARAMETERS = 2**28


class MLP:
    """A multilayer perceptron: ``x -> ReLU(x W1 + b1) -> ReLU(. W2 + b2) -> . W3 + b3``.

    Every parameter lives in one flat vector, :attr:`params`; :attr:`weights`
    and :attr:`biases` are views into it, layer by layer.  One vector makes
    saving a network, copying it and an optimiser's step one array operation
    each.

    Parameters
    ----------
    sizes : sequence of int
        Inputs, each hidden layer's units, outputs.
    params : numpy.ndarray, optional
        The flat parameter vector (zeros when omitted); used as it is, not copied.

    Attributes
    ----------
    sizes : tuple of int
    params : numpy.ndarray, shape (parameters,)
    weights : list of numpy.ndarray
        ``weights[k]`` has shape (inputs of layer k, outputs of layer k).
    biases : list of numpy.ndarray
        ``biases[k]`` has shape (outputs of layer k,).
    """

    def __init__(self, sizes: Sequence[int], params: FloatArray | None = None) -> None:
        given = tuple(sizes) if not isinstance(sizes, (str, bytes)) else ()
        if len(given) < 2 or not all(isinstance(s, Integral) and not isinstance(s, np.bool_ | bool)
                                     and s >= 1 for s in given):
            raise ValueError(f"an MLP needs at least an input and an output size, all whole "
                             f"numbers >= 1; got {sizes!r:.100}")
        self.sizes = tuple(int(s) for s in given)
        count = self.count(self.sizes)
        if count > MAX_PARAMETERS:
            raise ValueError(f"an MLP of sizes {list(self.sizes)} has {count:,} parameters, more "
                             f"than the {MAX_PARAMETERS:,} ({MAX_PARAMETERS * 8 / 2**30:g} GiB "
                             f"of float64) cfrviz builds; use smaller layers")
        self.params = np.zeros(count) if params is None else params
        if self.params.shape != (count,):
            raise ValueError(f"an MLP of sizes {list(self.sizes)} has {count} parameters; got "
                             f"an array of shape {self.params.shape}")
        self.weights, self.biases = self.layers(self.params)

    @staticmethod
    def count(sizes: Sequence[int]) -> int:
        """How many parameters a network of these sizes has."""
        return sum((n_in + 1) * n_out for n_in, n_out in zip(sizes[:-1], sizes[1:]))

    def layers(self, flat: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Views of a flat vector as this network's weight matrices and bias vectors."""
        weights, biases, at = [], [], 0
        for n_in, n_out in zip(self.sizes[:-1], self.sizes[1:]):
            weights.append(flat[at:at + n_in * n_out].reshape(n_in, n_out))
            at += n_in * n_out
            biases.append(flat[at:at + n_out])
            at += n_out
        return weights, biases

    @classmethod
    def create(cls, sizes: Sequence[int], rng: np.random.Generator) -> MLP:
        """A freshly initialised network with layer sizes ``sizes``.

        Weights are drawn from N(0, 2 / fan_in) (He et al., 2015, the usual choice before a
        ReLU); biases start at zero.  The last layer starts at zero too, so an untrained
        network predicts 0 everywhere: regret matching on it plays uniformly.
        """
        net = cls(sizes)
        for w in net.weights[:-1]:
            w[:] = rng.normal(0.0, np.sqrt(2.0 / w.shape[0]), size=w.shape)
        return net

    def copy(self) -> MLP:
        """A copy with its own parameters."""
        return MLP(self.sizes, self.params.copy())

    def forward(self, x: np.ndarray) -> np.ndarray:
        """Outputs for a batch of inputs ``x`` of shape (n, inputs): shape (n, outputs)."""
        return self._activations(x)[-1]

    def _activations(self, x: np.ndarray) -> list[np.ndarray]:
        """Every layer's output, the input first (what backpropagation needs)."""
        out = [np.asarray(x, dtype=np.float64)]
        last = len(self.weights) - 1
        for k, (w, b) in enumerate(zip(self.weights, self.biases)):
            z = out[-1] @ w + b
            out.append(z if k == last else np.maximum(z, 0.0))
        return out

    def loss(self, x: FloatArray, y: FloatArray, weight: FloatArray, mask: BoolArray) -> float:
        """The weighted squared error of :meth:`gradients`, without the gradient."""
        error = np.where(mask, self.forward(x) - y, 0.0)
        return float(weight @ (error ** 2).sum(axis=1) / weight.sum())

    def gradients(self, x: FloatArray, y: FloatArray, weight: FloatArray,
                  mask: BoolArray) -> tuple[float, FloatArray]:
        """Loss ``sum_i w_i sum_a mask_ia (f(x_i)_a - y_ia)^2 / sum_i w_i`` and its gradient.

        Parameters
        ----------
        x : array, shape (n, inputs)
        y : array, shape (n, outputs)
            Targets; entries outside ``mask`` are ignored.
        weight : array, shape (n,)
            Each row's weight (Deep CFR: the iteration the sample comes from).
        mask : bool array, shape (n, outputs)
            Which outputs count (the legal actions).

        Returns
        -------
        loss : float
        gradient : numpy.ndarray
            Shaped like :attr:`params`: d loss / d params, by backpropagation.
        """
        acts = self._activations(x)
        error = np.where(mask, acts[-1] - y, 0.0)
        total = weight.sum()
        loss = float(weight @ (error ** 2).sum(axis=1) / total)
        gradient = np.empty_like(self.params)
        grad_w, grad_b = self.layers(gradient)
        delta = 2.0 * error * (weight / total)[:, None]  # d loss / d (layer's output)
        for k in range(len(self.weights) - 1, -1, -1):
            grad_w[k][:] = acts[k].T @ delta
            grad_b[k][:] = delta.sum(axis=0)
            if k:
                delta = (delta @ self.weights[k].T) * (acts[k] > 0.0)  # back through the ReLU
        return loss, gradient

    def __repr__(self) -> str:
        return f"MLP(sizes={list(self.sizes)}, {len(self.params):,} parameters)"


class Adam:
    """Adam (Kingma and Ba, 2015): per-parameter step sizes from running gradient moments."""

    def __init__(self, net: MLP, learning_rate: float = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8) -> None:
        self.net = net
        self.learning_rate, self.beta1, self.beta2, self.eps = learning_rate, beta1, beta2, eps
        self.m = np.zeros_like(net.params)  # running mean of the gradient
        self.v = np.zeros_like(net.params)  # running mean of its square
        self.steps = 0

    def step(self, gradient: np.ndarray) -> None:
        """Move the network's parameters (in place) one step against ``gradient``."""
        self.steps += 1
        self.m += (1 - self.beta1) * (gradient - self.m)
        self.v += (1 - self.beta2) * (gradient * gradient - self.v)
        lr = (self.learning_rate * np.sqrt(1 - self.beta2 ** self.steps)
              / (1 - self.beta1 ** self.steps))  # bias correction of both means
        self.net.params -= lr * self.m / (np.sqrt(self.v) + self.eps)


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run numpy's matrix products on one thread.

    The products here are small (hundreds of rows, 64 columns): OpenBLAS splits them over
    every core anyway, and on a busy machine its threads wait for each other -- measured
    30 times slower than one thread.  ``threadpoolctl`` is the maintained way to limit the
    BLAS library's threads from inside a running process.
    """
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def train(net: MLP, x: FloatArray, y: FloatArray, weight: FloatArray, mask: BoolArray,
          steps: int, learning_rate: float = 1e-3,
          batch_size: int | None = None, rng: np.random.Generator | None = None) -> list[float]:
    """Fit ``net`` (in place) to targets ``y`` with Adam on the weighted squared error.

    Parameters
    ----------
    net : MLP
    x, y, weight, mask
        As :meth:`MLP.gradients`.
    steps : int
        Adam steps.
    learning_rate : float
    batch_size : int, optional
        Rows per step, drawn uniformly with replacement by ``rng``; ``None`` (or at least
        as many as there are rows) uses every row every step (full-batch).

    Returns
    -------
    list of float
        The loss before each step.
    """
    if batch_size is not None and batch_size < len(x):
        if rng is None:
            raise ValueError("train: minibatches (batch_size < rows) need an rng")
        draw = rng
    else:
        draw = None  # every row, every step
    adam = Adam(net, learning_rate)
    losses = []
    with one_blas_thread():
        for _ in range(steps):
            rows = slice(None) if draw is None else draw.integers(0, len(x), size=batch_size)
            loss, gradient = net.gradients(x[rows], y[rows], weight[rows], mask[rows])
            losses.append(loss)
            adam.step(gradient)
    return losses
