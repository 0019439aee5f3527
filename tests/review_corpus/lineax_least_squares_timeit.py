# source: patrick-kidger/lineax
# path: docs/examples/least_squares.ipynb
# commit: 2f0e083d9f0a3ae3329648410ed32e29f8cc9fb4
# licence: Apache-2.0
# url: https://github.com/patrick-kidger/lineax/blob/2f0e083d9f0a3ae3329648410ed32e29f8cc9fb4/docs/examples/least_squares.ipynb
# note: each function is compiled by the call whose result is printed before timing, and min() drops the first repeat anyway; the timed lambdas never block on the jitted result
# [cell 10]
matrix = jr.normal(jr.PRNGKey(0), (500, 200))
vector = jr.normal(jr.PRNGKey(1), (500,))


@jax.jit
def solve_jax(matrix, vector):
    out, *_ = jnp.linalg.lstsq(matrix, vector)
    return out


@jax.jit
def solve_lineax(matrix, vector):
    operator = lx.MatrixLinearOperator(matrix)
    solver = lx.QR()  # or lx.AutoLinearSolver(well_posed=None)
    solution = lx.linear_solve(operator, vector, solver)
    return solution.value


solution_jax = solve_jax(matrix, vector)
solution_lineax = solve_lineax(matrix, vector)
with np.printoptions(threshold=10):
    print("JAX solution:", solution_jax)
    print("Lineax solution:", solution_lineax)
print()
time_jax = timeit.repeat(lambda: solve_jax(matrix, vector), number=1, repeat=10)  # expect: review-timing-without-blocking
time_lineax = timeit.repeat(lambda: solve_lineax(matrix, vector), number=1, repeat=10)  # expect: review-timing-without-blocking
print("JAX time:", min(time_jax))
print("Lineax time:", min(time_lineax))
# [cell 12]
@jax.jit
@jax.grad
def grad_jax(matrix):
    out, *_ = jnp.linalg.lstsq(matrix, vector)
    return out.sum()


@jax.jit
@jax.grad
def grad_lineax(matrix):
    operator = lx.MatrixLinearOperator(matrix)
    solution = lx.linear_solve(operator, vector, lx.SVD())
    return solution.value.sum()


gradients_jax = grad_jax(matrix)
gradients_lineax = grad_lineax(matrix)
with np.printoptions(threshold=10, edgeitems=2):
    print("JAX gradients:", gradients_jax)
    print("Lineax gradients:", gradients_lineax)
print()
time_jax = timeit.repeat(lambda: grad_jax(matrix), number=1, repeat=10)  # expect: review-timing-without-blocking
time_lineax = timeit.repeat(lambda: grad_lineax(matrix), number=1, repeat=10)  # expect: review-timing-without-blocking
print("JAX time:", min(time_jax))
print("Lineax time:", min(time_lineax))
