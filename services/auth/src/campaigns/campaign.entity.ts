import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A campaign page (`/kba/{campaign_name}`), defined by operators in the database or in CAMPAIGNS_JSON. */
@Entity({ name: 'campaign' })
export class CampaignEntity {
  @PrimaryColumn({ name: 'campaign_name', type: 'text' })
  campaignName!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  text!: string;

  @Column({ name: 'starter_prompts', type: 'jsonb', default: () => "'[]'" })
  starterPrompts!: string[];

  @Column({ type: 'boolean', default: true })
  active!: boolean;
}
