import { CODE_OMITTED, hostOf, normalizeTextForReading as read } from './normalize';

describe('normalizeTextForReading', () => {
  it('leaves plain prose as it is', () => {
    expect(read('Lisbon is lovely in April. Pack a light jacket!')).toBe('Lisbon is lovely in April. Pack a light jacket!');
  });

  it('replaces a fenced code block by a short phrase, whatever its fence and language', () => {
    const text = 'Run this:\n\n```bash\nnpm ci\nnpm start\n```\n\nThen open the page.';
    expect(read(text)).toBe(`Run this:\n\n${CODE_OMITTED}.\n\nThen open the page.`);
    expect(read('Before\n~~~\nx = 1\n~~~\nAfter')).toBe(`Before\n\n${CODE_OMITTED}.\n\nAfter`);
    // An unterminated fence (a reply cut short) hides the rest, never reads it.
    expect(read('Look:\n```js\nconst secret = 1;')).toBe(`Look:\n\n${CODE_OMITTED}.`);
    expect(read('```\nnot read\n```')).not.toContain('not read');
  });

  it('replaces an indented code block too, and reads inline code as its text', () => {
    expect(read('Example:\n\n    let x = 1;\n    let y = 2;\n\nDone.')).toBe(`Example:\n\n${CODE_OMITTED}.\n\nDone.`);
    expect(read('Call `fetch()` with **care**.')).toBe('Call fetch() with care.');
  });

  it('reads links as their text, images as their description, reference links too', () => {
    expect(read('See [the docs](https://example.com/docs "Docs") for more.')).toBe('See the docs for more.');
    expect(read('A [wiki](https://en.wikipedia.org/wiki/Foo_(bar)) page.')).toBe('A wiki page.');
    expect(read('![a red bicycle](bike.png) and ![](spacer.gif)')).toBe('a red bicycle and');
    expect(read('Read [the guide][1].\n\n[1]: https://example.com/guide')).toBe('Read the guide.');
  });

  it('shortens bare URLs and autolinks to their host', () => {
    expect(read('Go to https://www.example.com/a/b?c=1#d now.')).toBe('Go to example.com now.');
    expect(read('Docs: <https://docs.python.org/3/library/>.')).toBe('Docs: docs.python.org.');
    expect(read('Try www.openstreetmap.org/#map=5/38/-9, it is free.')).toBe('Try openstreetmap.org, it is free.');
    expect(read('Mail <mailto:help@example.com>')).toBe('Mail help@example.com');
    expect(hostOf('not a url at all')).toBe('not a url at all');
  });

  it('reads headings and list items as sentences of their own', () => {
    const text = '## Packing list\n\n- passport\n- a light jacket\n* sun cream!\n\n1. Book the flight\n2) Book the hotel;';
    expect(read(text)).toBe('Packing list.\n\npassport. a light jacket. sun cream!\n\nBook the flight. Book the hotel;');
    expect(read('Title\n=====\n\nBody')).toBe('Title\n\nBody');
    expect(read('# Closed heading #')).toBe('Closed heading.');
    expect(read('- [x] done task\n- [ ] open task')).toBe('done task. open task.');
  });

  it('takes emphasis, strikethrough, quotes, rules, tables, HTML and escapes off', () => {
    expect(read('This is *very* __important__ and ~~wrong~~ right.')).toBe('This is very important and wrong right.');
    expect(read('> Quoted wisdom\n> goes on')).toBe('Quoted wisdom goes on');
    expect(read('Above\n\n---\n\nBelow')).toBe('Above\n\nBelow');
    expect(read('| City | Month |\n| --- | :---: |\n| Lisbon | April |')).toBe('City, Month. Lisbon, April.');
    expect(read('Line<br>break <b>bold</b>')).toBe('Line break bold');
    expect(read('2 \\* 3 \\_ok\\_')).toBe('2 * 3 _ok_');
    // snake_case and arithmetic are not emphasis.
    expect(read('use snake_case_names and 2*3*4')).toBe('use snake_case_names and 2*3*4');
  });

  it('drops emoji (with skin tones, joiners, variation selectors and flags) and keeps the words', () => {
    expect(read('Great job 👍🏽! Family: 👨‍👩‍👧 Flag 🇵🇹 ❤️ done ✅')).toBe('Great job! Family: Flag done');
    expect(read('🎉🎉🎉')).toBe('');
  });

  it('keeps text in other scripts and numbers intact', () => {
    expect(read('Olá, tudo bem? Это тест. 東京 3.5 km')).toBe('Olá, tudo bem? Это тест. 東京 3.5 km');
  });
});
