// `k6/http` against the fake gateway.
import { handle } from './gateway.mjs';

export default {
  get: (url, params) => handle('GET', url, params),
  post: (url, _body, params) => handle('POST', url, params),
};
