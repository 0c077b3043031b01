<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.2" tiledversion="1.2.2" name="objects" tilewidth="60" tileheight="60" tilecount="14" columns="0">
 <grid orientation="orthogonal" width="1" height="1"/>
 <properties>
  <property name="type" value="gem"/>
 </properties>
 <tile id="0">
  <properties>
   <property name="type" value="door"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/door.png"/>
 </tile>
 <tile id="1">
  <properties>
   <property name="type" value="tile"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/tile.png"/>
 </tile>
 <tile id="2">
  <properties>
   <property name="type" value="key"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/key.png"/>
 </tile>
 <tile id="3">
  <properties>
   <property name="type" value="portal"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/portal.png"/>
 </tile>
 <tile id="4">
  <properties>
   <property name="type" value="wall"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/wall.png"/>
 </tile>
 <tile id="5">
  <properties>
   <property name="type" value="portal-exit"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/portal.png"/>
 </tile>
 <tile id="6">
  <properties>
   <property name="type" value="exit"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/exit.png"/>
 </tile>
 <tile id="7">
  <properties>
   <property name="type" value="conveyer-right"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/conveyer-right.png"/>
 </tile>
 <tile id="8">
  <properties>
   <property name="type" value="conveyer-up"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/conveyer-up.png"/>
 </tile>
 <tile id="9">
  <properties>
   <property name="type" value="conveyer-left"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/conveyer-left.png"/>
 </tile>
 <tile id="10">
  <properties>
   <property name="type" value="conveyer-down"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/conveyer-down.png"/>
 </tile>
 <tile id="11">
  <properties>
   <property name="type" value="trap"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/trap.png"/>
 </tile>
 <tile id="12">
  <properties>
   <property name="type" value="crumble"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/crumble.png"/>
 </tile>
 <tile id="13">
  <properties>
   <property name="type" value="gem"/>
  </properties>
  <image width="60" height="60" source="../images/tiles/gem.png"/>
 </tile>
</tileset>
