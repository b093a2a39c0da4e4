import { telemetry } from './instrument';
import { runServiceMain } from '@app/platform';
import { memoryService } from './index';

void runServiceMain(memoryService, telemetry);
