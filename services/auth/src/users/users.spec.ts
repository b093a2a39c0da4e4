import { ageOn } from './users.service';

describe('ageOn', () => {
  const today = new Date('2026-11-21T12:00:00Z');

  it('counts whole years, turning on the birthday itself', () => {
    expect(ageOn('2008-11-21', today)).toBe(18);
    expect(ageOn('2008-11-22', today)).toBe(17);
    expect(ageOn('2008-12-01', today)).toBe(17);
    expect(ageOn('1990-01-01', today)).toBe(36);
  });

  it('handles a birthday on 29 February', () => {
    expect(ageOn('2008-02-29', new Date('2026-02-28T00:00:00Z'))).toBe(17);
    expect(ageOn('2008-02-29', new Date('2026-03-01T00:00:00Z'))).toBe(18);
  });
});
