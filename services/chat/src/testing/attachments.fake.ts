import type { Caller } from '@app/contracts';
import type { FileReference } from '@app/contracts/chat';
import { DomainError } from '@app/platform';
import type { LlmAttachment } from '../llm/llm-provider';
import type { AttachmentsService } from '../replies/attachments.service';

/** The files service's side of attachments: files known by id, what the model is shown, images kept. */
export class FakeAttachments implements Pick<AttachmentsService, 'verify' | 'describeOwn' | 'forModel' | 'storeGenerated'> {
  /** The caller's files, by id, with the type found in their bytes. */
  readonly files = new Map<string, string>();
  readonly shownFor: { id: string; files: FileReference[] }[][] = [];
  readonly stored: { base64: string; mimeType: string }[] = [];
  storeFails = false;

  async verify(_caller: Caller, files: FileReference[]): Promise<FileReference[]> {
    return files.map((file) => {
      const type = this.files.get(file.object_store_object_id);
      if (!type) throw DomainError.notFound(`File not found: ${file.object_store_object_id}`);
      return { object_store_object_id: file.object_store_object_id, mime_type: type };
    });
  }

  async describeOwn(_caller: Caller, ids: string[]) {
    return ids.map((id) => {
      const type = this.files.get(id);
      if (!type) throw DomainError.notFound(`File not found: ${id}`);
      return { object_store_object_id: id, mime_type: type, filename: `${id}.file` };
    });
  }

  async forModel(_caller: Caller, messages: { id: string; files: FileReference[] }[]): Promise<Map<string, LlmAttachment[]>> {
    this.shownFor.push(messages);
    return new Map(
      messages
        .filter((m) => m.files.length)
        .map((m) => [
          m.id,
          m.files.map((f): LlmAttachment => ({
            kind: 'image',
            filename: f.object_store_object_id,
            dataUrl: `data:${f.mime_type};base64,AA`,
          })),
        ]),
    );
  }

  async storeGenerated(_caller: Caller, base64: string, mimeType: string): Promise<FileReference> {
    if (this.storeFails) throw new Error('The files service is away');
    this.stored.push({ base64, mimeType });
    return { object_store_object_id: `generated-${this.stored.length}`, mime_type: mimeType };
  }
}
