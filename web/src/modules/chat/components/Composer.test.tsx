import type { FileUploadResult } from '@app/contracts/files';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createAttachmentDraft } from '../../files/state/attachmentDraft';
import { Composer } from './Composer';

function setup() {
  const uploads: ((r: FileUploadResult) => void)[] = [];
  const draft = createAttachmentDraft({
    upload: () => new Promise((resolve) => uploads.push(resolve)),
    previewOf: () => null,
    release: () => undefined,
  });
  const onSend = vi.fn();
  render(<Composer onSend={onSend} onStop={() => undefined} streaming={false} stopping={false} attachments={draft} />);
  return { draft, uploads, onSend };
}
const paste = (files: File[], types: string[]) =>
  fireEvent.paste(screen.getByLabelText('Message'), { clipboardData: { files, types: [...types, ...(files.length ? ['Files'] : [])] } });

describe('the composer with attachments', () => {
  it('attaches pasted files, but leaves a paste that carries text to the text', () => {
    const { draft } = setup();
    paste([new File(['x'], 'shot.png', { type: 'image/png' })], ['text/plain']);
    expect(draft.get().items).toHaveLength(0);
    paste([new File(['x'], 'shot.png', { type: 'image/png' })], []);
    expect(draft.get().items.map((i) => i.name)).toEqual(['shot.png']);
    expect(screen.getByRole('list', { name: 'Files to send' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Uploading shot.png');
  });

  it('waits for the uploads, then sends the text with the files and empties the tray', async () => {
    const { uploads, onSend } = setup();
    const user = userEvent.setup();
    paste([new File(['x'], 'doc.pdf', { type: 'application/pdf' })], []);
    await user.type(screen.getByLabelText('Message'), 'Read this');
    expect(screen.getByRole('button', { name: 'Send message' }).hasAttribute('disabled')).toBe(true);
    await act(async () => uploads[0]({ object_store_object_id: 'f1', mime_type: 'application/pdf', filename: 'doc.pdf', size: 1 }));
    expect(screen.getByText('1 B')).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('Read this', [{ object_store_object_id: 'f1', mime_type: 'application/pdf' }]);
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull();
  });

  it('removes a file before sending, and the focus goes back to the message box', async () => {
    const { draft } = setup();
    const user = userEvent.setup();
    paste([new File(['x'], 'a.txt', { type: 'text/plain' })], []);
    await user.click(screen.getByRole('button', { name: 'Remove a.txt' }));
    expect(draft.get().items).toEqual([]);
    expect(document.activeElement?.id).toBe('composer-input');
  });
});
