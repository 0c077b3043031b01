<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="street" tilewidth="32" tileheight="32" tilecount="20" columns="4">
 <image source="../../assets/tiles/street.png" width="128" height="160"/>
 <tile id="0">
  <properties>
   <property name="terrain" value="cobble"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="terrain" value="cobble-worn"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="terrain" value="cobble-moss"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="terrain" value="flagstone"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="terrain" value="grass"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="terrain" value="grass-flowers"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="terrain" value="dirt"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="terrain" value="wood-floor"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="terrain" value="wood-floor-knots"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="terrain" value="stone-floor"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="blocked" type="bool" value="true"/>
   <property name="terrain" value="roof-red"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="blocked" type="bool" value="true"/>
   <property name="terrain" value="roof-slate"/>
  </properties>
 </tile>
 <tile id="12">
  <properties>
   <property name="blocked" type="bool" value="true"/>
   <property name="terrain" value="crates"/>
  </properties>
 </tile>
 <tile id="13">
  <properties>
   <property name="blocked" type="bool" value="true"/>
   <property name="terrain" value="tree"/>
  </properties>
 </tile>
 <tile id="14">
  <properties>
   <property name="void" type="bool" value="true"/>
   <property name="terrain" value="water"/>
  </properties>
 </tile>
 <tile id="15">
  <properties>
   <property name="void" type="bool" value="true"/>
   <property name="terrain" value="chasm"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="blocked" type="bool" value="true"/>
   <property name="terrain" value="well"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="blocked" type="bool" value="true"/>
   <property name="terrain" value="barrels"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="blocked" type="bool" value="true"/>
   <property name="terrain" value="hedge"/>
  </properties>
 </tile>
 <tile id="19">
  <properties>
   <property name="terrain" value="stone-floor-cracked"/>
  </properties>
 </tile>
</tileset>
