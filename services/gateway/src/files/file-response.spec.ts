import { contentDisposition, dispositionOf } from './file-response';

describe('how a file body is served', () => {
  it('is inline only for the allow-listed types the files service also calls inline', () => {
    expect(dispositionOf({ content_type: 'image/png', disposition: 'inline' })).toBe('inline');
    expect(dispositionOf({ content_type: 'text/plain; charset=utf-8', disposition: 'inline' })).toBe('inline');
    expect(dispositionOf({ content_type: 'image/png', disposition: 'attachment' })).toBe('attachment');
    // Whatever the service says, a PDF, SVG, HTML or unknown type is a download.
    for (const type of [
      'application/pdf',
      'image/svg+xml',
      'text/html; charset=utf-8',
      'application/octet-stream',
      'text/markdown; charset=utf-8',
    ]) {
      expect(dispositionOf({ content_type: type, disposition: 'inline' })).toBe('attachment');
    }
  });

  it('names the file safely in ASCII and in UTF-8', () => {
    expect(contentDisposition('attachment', 'rapport "final"; été.pdf')).toBe(
      `attachment; filename="rapport _final__ _t_.pdf"; filename*=UTF-8''rapport%20%22final%22%3B%20%C3%A9t%C3%A9.pdf`,
    );
  });
});
