import type { MigrationInterface } from 'typeorm';
import { CreateAudioCache1766000000100 } from './1766000000100-create-audio-cache';

/** The tts service's migrations, oldest first. */
export const ttsMigrations: (new () => MigrationInterface)[] = [CreateAudioCache1766000000100];
