import { telemetry } from './instrument';
import { runServiceMain } from '@app/platform';
import { chatService } from './index';

void runServiceMain(chatService, telemetry);
