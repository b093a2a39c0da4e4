import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { CHAT_RPC, type FileReference } from '@app/contracts/chat';
import { FILES_RPC } from '@app/contracts/files';
import { AppLogger, publicUrlFor, RpcCallError, RpcClient, SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../config';

/** What the chat service answered to a text. */
export interface AssistantReply {
  text: string;
  images: FileReference[];
  /** The chat service refused or failed: its words, for the texter. */
  error: string | null;
}

/** The longest a texter waits for the model before the reply is given up on. */
const REPLY_TIMEOUT_MS = 120_000;

/** The caller the sms service acts as for a texter: the account of the number (never from the text itself). */
export function texterCaller(userId: string, requestId: string): Caller {
  return { user_id: userId, is_anon: false, session_id: null, request_id: requestId };
}

/**
 * The assistant, as the sms service reaches it: the chat service (with the user's memories, exactly
 * as on the web) and the files service (incoming pictures, links to generated images). The sms
 * service never talks to a model itself.
 */
@Injectable()
export class AssistantClient {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<SmsConfig, 'PUBLIC_URL'>,
    private readonly logger: AppLogger,
  ) {}

  /**
   * Opens a conversation for a texting thread; it shows in the user's portal like any other. A
   * group's is `shared`: answered with nobody's memories, and nothing learnt from what its members say.
   */
  async newConversation(caller: Caller, title: string, { shared = false } = {}): Promise<string> {
    const conversation = await this.rpc.call(CHAT_RPC.create, { conversation_title: title, ...(shared ? { shared } : {}) }, caller);
    return conversation.chat_id;
  }

  /** Deletes a conversation (a group nobody is left in); one already gone is fine. */
  async removeConversation(caller: Caller, chatId: string): Promise<void> {
    try {
      await this.rpc.call(CHAT_RPC.remove, { chat_id: chatId }, caller);
    } catch (error) {
      if (error instanceof RpcCallError && error.shape.status === 404) return;
      throw error;
    }
  }

  /** Sends the text to the conversation and reads the reply stream to its end. */
  async reply(caller: Caller, chatId: string, content: string, files: FileReference[] = []): Promise<AssistantReply> {
    let text = '';
    let final: string | null = null;
    const images: FileReference[] = [];
    try {
      for await (const event of this.rpc.stream(CHAT_RPC.send, { chat_id: chatId, content, ...(files.length ? { files } : {}) }, caller, {
        timeoutMs: REPLY_TIMEOUT_MS,
      })) {
        if (event.event === 'text') text += event.data.delta;
        else if (event.event === 'image') images.push(event.data);
        else if (event.event === 'assistant_message') final = event.data.content;
        else if (event.event === 'error') return { text: final ?? text, images, error: event.data.detail };
      }
    } catch (error) {
      const detail = (error as { shape?: { detail?: unknown } }).shape?.detail;
      return { text: '', images: [], error: typeof detail === 'string' ? detail : 'The assistant could not answer just now.' };
    }
    return { text: final ?? text, images, error: null };
  }

  /** A public, short-lived link to one of the user's files (MMS media), or null without PUBLIC_URL. */
  async mediaUrl(caller: Caller, file: FileReference): Promise<string | null> {
    if (!this.config.PUBLIC_URL) return null;
    try {
      const signed = await this.rpc.call(
        FILES_RPC.presign,
        { object_store_object_id: file.object_store_object_id, preview_resolution: 64 },
        caller,
      );
      return publicUrlFor(this.config.PUBLIC_URL, signed.presigned_url);
    } catch (error) {
      this.logger.warn({ msg: 'No link for a generated image', error: String(error) }, 'AssistantClient');
      return null;
    }
  }

  /** Stores a picture the texter sent (MMS) as their file, so the model sees it like a portal attachment. */
  async storeMedia(caller: Caller, data: Buffer, contentType: string, index: number): Promise<FileReference | null> {
    try {
      const stored = await this.rpc.call(
        FILES_RPC.put,
        {
          data: data.toString('base64'),
          filename: `mms-${index + 1}.${contentType.split('/')[1] ?? 'bin'}`,
          declared_type: contentType,
          source: 'upload',
        },
        caller,
      );
      return { object_store_object_id: stored.object_store_object_id, mime_type: stored.mime_type };
    } catch (error) {
      this.logger.warn({ msg: 'An MMS picture was not stored', error: String(error) }, 'AssistantClient');
      return null;
    }
  }
}
