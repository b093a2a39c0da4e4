import { publicUrlFor } from './public-url';

describe('publicUrlFor', () => {
  it('joins PUBLIC_URL and a path, with or without its trailing slash', () => {
    expect(publicUrlFor('https://assistant.example/', '/api/v1/x')).toBe('https://assistant.example/api/v1/x');
    expect(publicUrlFor('https://assistant.example', '/api/v1/x')).toBe('https://assistant.example/api/v1/x');
  });

  it('falls back to the given origin, else says there is no public URL', () => {
    expect(publicUrlFor(undefined, '/p', 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/p');
    expect(publicUrlFor('', '/p')).toBeUndefined();
  });
});
