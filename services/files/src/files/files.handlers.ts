import { Controller } from '@nestjs/common';
import { FILES_RPC } from '@app/contracts/files';
import { RpcHandler, type RpcInput } from '@app/platform';
import { UploadsService } from '../uploads/uploads.service';
import { FilesService } from './files.service';

@Controller()
export class FilesHandlers {
  constructor(
    private readonly files: FilesService,
    private readonly uploads: UploadsService,
  ) {}

  @RpcHandler(FILES_RPC.uploadBegin)
  begin({ caller, data }: RpcInput<typeof FILES_RPC.uploadBegin>) {
    return this.uploads.begin(caller, data);
  }

  @RpcHandler(FILES_RPC.uploadChunk)
  chunk({ caller, data }: RpcInput<typeof FILES_RPC.uploadChunk>) {
    return this.uploads.chunk(caller, data);
  }

  @RpcHandler(FILES_RPC.uploadCommit)
  commit({ caller, data }: RpcInput<typeof FILES_RPC.uploadCommit>) {
    return this.uploads.commit(caller, data.upload_id);
  }

  @RpcHandler(FILES_RPC.uploadAbort)
  abort({ caller, data }: RpcInput<typeof FILES_RPC.uploadAbort>) {
    return this.uploads.abort(caller, data.upload_id);
  }

  @RpcHandler(FILES_RPC.put)
  put({ caller, data }: RpcInput<typeof FILES_RPC.put>) {
    return this.uploads.put(caller, data);
  }

  @RpcHandler(FILES_RPC.describe)
  describe({ caller, data }: RpcInput<typeof FILES_RPC.describe>) {
    return this.files.describe(caller, data.object_store_object_id);
  }

  @RpcHandler(FILES_RPC.readForModel)
  readForModel({ caller, data }: RpcInput<typeof FILES_RPC.readForModel>) {
    return this.files.readForModel(caller, data);
  }

  @RpcHandler(FILES_RPC.presign)
  presign({ caller, data }: RpcInput<typeof FILES_RPC.presign>) {
    return this.files.presign(caller, data);
  }

  @RpcHandler(FILES_RPC.discardImport)
  discardImport({ caller, data }: RpcInput<typeof FILES_RPC.discardImport>) {
    return this.files.discardImport(caller, data.object_store_object_id);
  }

  @RpcHandler(FILES_RPC.discardAttachments)
  discardAttachments({ caller, data }: RpcInput<typeof FILES_RPC.discardAttachments>) {
    return this.files.discardAttachments(caller, data.object_store_object_ids);
  }

  @RpcHandler(FILES_RPC.read)
  read({ caller, data }: RpcInput<typeof FILES_RPC.read>) {
    return this.files.read(caller, data);
  }
}
