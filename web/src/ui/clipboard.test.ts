import { describe, expect, it } from 'vitest';
import { handleLightCopy, toLightHtml } from './clipboard';

describe('copying from messages (section 2)', () => {
  it('gives light-themed, style-stripped HTML without controls', () => {
    const element = document.createElement('div');
    element.innerHTML =
      '<p class="x" style="color:white" data-id="1" onclick="evil()">Hello <strong class="b">world</strong></p><button>Copy</button>';
    const html = toLightHtml(element);
    expect(html).toMatch(/^<div style="color:#1f2328;background:#ffffff/);
    expect(html).toContain('<p>Hello <strong>world</strong></p>');
    expect(html).not.toMatch(/class=|onclick|data-id|<button/);
  });

  it('puts HTML and plain text on the clipboard for a selection', () => {
    document.body.innerHTML = '<div id="m"><p style="color:red">Some <em>text</em></p></div>';
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('m')!);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    const data = new Map<string, string>();
    let prevented = false;
    handleLightCopy({
      clipboardData: { setData: (type: string, value: string) => data.set(type, value) },
      preventDefault: () => (prevented = true),
    } as unknown as ClipboardEvent);
    expect(prevented).toBe(true);
    expect(data.get('text/plain')).toBe('Some text');
    expect(data.get('text/html')).toContain('<p>Some <em>text</em></p>');
  });
});
