import { Controller } from '@nestjs/common';
import { PROJECT_RPC } from '@app/contracts/chat';
import { RpcHandler, type RpcInput } from '@app/platform';
import { ProjectsService } from './projects.service';

/** The projects' calls: each a one-line delegation. */
@Controller()
export class ProjectsHandlers {
  constructor(private readonly projects: ProjectsService) {}

  @RpcHandler(PROJECT_RPC.list)
  list({ caller }: RpcInput<typeof PROJECT_RPC.list>) {
    return this.projects.list(caller);
  }

  @RpcHandler(PROJECT_RPC.get)
  get({ caller, data }: RpcInput<typeof PROJECT_RPC.get>) {
    return this.projects.get(caller, data.project_id);
  }

  @RpcHandler(PROJECT_RPC.create)
  create({ caller, data }: RpcInput<typeof PROJECT_RPC.create>) {
    return this.projects.create(caller, data);
  }

  @RpcHandler(PROJECT_RPC.update)
  update({ caller, data }: RpcInput<typeof PROJECT_RPC.update>) {
    return this.projects.update(caller, data);
  }

  @RpcHandler(PROJECT_RPC.remove)
  remove({ caller, data }: RpcInput<typeof PROJECT_RPC.remove>) {
    return this.projects.remove(caller, data.project_id, data.conversations);
  }
}
