import { Controller } from '@nestjs/common';
import { INSIDER_CONFIG_RPC } from '@app/contracts/insider-config';
import { RpcHandler, type RpcInput } from '@app/platform';
import { VoiceService } from './voice.service';

@Controller()
export class VoiceHandlers {
  constructor(private readonly voice: VoiceService) {}

  @RpcHandler(INSIDER_CONFIG_RPC.getVoice)
  get({ caller }: RpcInput<typeof INSIDER_CONFIG_RPC.getVoice>) {
    return this.voice.get(caller);
  }

  @RpcHandler(INSIDER_CONFIG_RPC.setVoice)
  set({ caller, data }: RpcInput<typeof INSIDER_CONFIG_RPC.setVoice>) {
    return this.voice.update(caller, data);
  }
}
