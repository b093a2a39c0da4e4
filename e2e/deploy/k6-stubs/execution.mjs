// `k6/execution`: the harness sets the running VU and iteration; abort ends the run.
export const position = { vu: 1, iteration: 0, aborted: undefined };

export default {
  vu: {
    get idInTest() {
      return position.vu;
    },
    get iterationInInstance() {
      return position.iteration;
    },
  },
  test: {
    abort(message) {
      position.aborted = message;
      throw new Error(`test aborted: ${message}`);
    },
  },
};
