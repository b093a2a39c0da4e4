import { telemetry } from './instrument';
import { runServiceMain } from '@app/platform';
import { filesService } from './index';

void runServiceMain(filesService, telemetry);
